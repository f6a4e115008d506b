import Foundation
import HitTestKit
import Testing

@Suite struct GeometryTests {
    @Test func rectContainsHasHalfOpenEdges() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(r.contains(Point(x: 10, y: 20)))
        #expect(r.contains(Point(x: 39.999, y: 59.999)))
        #expect(!r.contains(Point(x: 40, y: 30)))
        #expect(!r.contains(Point(x: 20, y: 60)))
        #expect(!r.contains(Point(x: 9.999, y: 30)))
        #expect(!r.contains(Point(x: .nan, y: 30)))
        #expect(!Rect(x: 0, y: 0, width: 0, height: 10).contains(.zero))
        #expect(!Rect(x: 0, y: 0, width: -5, height: 10).contains(Point(x: -1, y: 1)))
    }

    @Test func rectAccessorsInsetIntersectionUnion() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect([r.minX, r.minY, r.maxX, r.maxY, r.midX, r.midY] == [10, 20, 40, 60, 25, 40])
        #expect(r.inset(by: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)) == Rect(x: 12, y: 21, width: 24, height: 36))
        #expect(r.inset(by: EdgeInsets(top: -5, left: -5, bottom: -5, right: -5)) == Rect(x: 5, y: 15, width: 40, height: 50))
        #expect(r.intersection(Rect(x: 30, y: 50, width: 100, height: 100)) == Rect(x: 30, y: 50, width: 10, height: 10))
        #expect(r.intersection(Rect(x: 100, y: 100, width: 1, height: 1)).isNull)
        #expect(r.union(Rect(x: 0, y: 0, width: 1, height: 1)) == Rect(x: 0, y: 0, width: 40, height: 60))
        #expect(Rect.null.union(r) == r)
    }

    @Test func transforms() throws {
        let t = AffineTransform(translationX: 5, y: -3)
        #expect(Point(x: 1, y: 1).applying(t) == Point(x: 6, y: -2))
        let s = AffineTransform(scaleX: 2, y: 3)
        #expect(Point(x: 1, y: 1).applying(s.concatenating(t)) == Point(x: 7, y: 0))
        #expect(Point(x: 1, y: 1).applying(t.concatenating(s)) == Point(x: 12, y: -6))
        let r = AffineTransform(rotationAngle: .pi / 2)
        let p = Point(x: 1, y: 0).applying(r)
        #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15)  // clockwise on screen: +x -> +y
        let inv = try #require(s.concatenating(t).inverted())
        #expect(Point(x: 7, y: 0).applying(inv) == Point(x: 1, y: 1))
        #expect(AffineTransform(scaleX: 0, y: 1).inverted() == nil)
        #expect(AffineTransform(a: 1e-200, b: 0, c: 0, d: 1e-200, tx: 0, ty: 0).inverted() == nil)
        #expect(AffineTransform.identity.isIdentity && !t.isIdentity)
        #expect(Rect(x: 0, y: 0, width: 10, height: 20).applying(r).width.rounded() == 20)
    }

    @Test func geometryIsCodable() throws {
        let r = Rect(x: 1, y: 2, width: 3, height: 4)
        let data = try JSONEncoder().encode(r)
        #expect(try JSONDecoder().decode(Rect.self, from: data) == r)
    }
}
