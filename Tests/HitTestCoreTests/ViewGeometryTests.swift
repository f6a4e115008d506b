import HitTestKit
import Testing

@Suite struct ViewGeometryTests {
    @Test func freshViewIsZero() {
        let v = View()
        #expect(v.frame == .zero && v.bounds == .zero && v.center == .zero)
        #expect(v.transform.isIdentity && v.anchorPoint == Point(x: 0.5, y: 0.5))
        #expect(v.alpha == 1 && !v.isHidden && v.isUserInteractionEnabled && v.tag == 0)
        #expect(View(frame: .zero).frame == .zero)
    }

    @Test func frameSetsCenterAndBoundsSize() {
        let v = View(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(v.center == Point(x: 60, y: 45))
        #expect(v.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        v.bounds.origin = Point(x: 0, y: 1200)
        v.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        #expect(v.bounds == Rect(x: 0, y: 1200, width: 40, height: 40))  // origin kept
        #expect(v.center == Point(x: 20, y: 20))
    }

    @Test func boundsSizeKeepsCenterAndAnchorMovesFrame() {
        let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        v.bounds.size = Size(width: 200, height: 50)
        #expect(v.center == Point(x: 50, y: 50))
        #expect(v.frame == Rect(x: -50, y: 25, width: 200, height: 50))
        v.anchorPoint = .zero
        #expect(v.center == Point(x: 50, y: 50))
        #expect(v.frame == Rect(x: 50, y: 50, width: 200, height: 50))
    }

    @Test func frameOfTransformedViewIsItsBoundingBox() {
        let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 50))
        v.transform = AffineTransform(scaleX: 2, y: 2)
        #expect(v.frame == Rect(x: -50, y: -25, width: 200, height: 100))
        v.transform = AffineTransform(rotationAngle: .pi / 2)
        let f = v.frame
        #expect(abs(f.minX - 25) < 1e-9 && abs(f.minY + 25) < 1e-9)
        #expect(abs(f.width - 50) < 1e-9 && abs(f.height - 100) < 1e-9)
    }

    @Test func settingFrameUnderATransformReadsBack() {
        let v = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        v.transform = AffineTransform(scaleX: 0.5, y: 0.5)
        v.frame = Rect(x: 10, y: 20, width: 100, height: 60)
        #expect(v.bounds.size == Size(width: 200, height: 120))  // twice the frame
        #expect(v.frame == Rect(x: 10, y: 20, width: 100, height: 60))
        v.transform = AffineTransform(rotationAngle: .pi / 6)
        v.frame = Rect(x: 5, y: 5, width: 80, height: 90)
        let f = v.frame
        #expect(abs(f.minX - 5) < 1e-9 && abs(f.minY - 5) < 1e-9)
        #expect(abs(f.width - 80) < 1e-9 && abs(f.height - 90) < 1e-9)
    }

    @Test func nonFiniteGeometryStops() async {
        await #expect(processExitsWith: .failure) {
            View().center = Point(x: .nan, y: 0)
        }
        await #expect(processExitsWith: .failure) {
            View().frame = Rect(x: 0, y: 0, width: .infinity, height: 1)
        }
        await #expect(processExitsWith: .failure) {
            View().transform = AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        }
        await #expect(processExitsWith: .failure) {
            View().alpha = .nan
        }
    }
}
