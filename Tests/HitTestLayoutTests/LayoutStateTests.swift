import Foundation
import HitTestKit
import HitTestReference
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// The first attribute of the layout-state record: `autoresizingMask` and `autoresizesSubviews`
/// (UIKit's defaults and raw values; stored only, no effect on hit testing).
@Suite struct LayoutStateTests {
    @Test func defaultsAreUIKits() {
        let v = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(v.autoresizingMask == [])
        #expect(v.autoresizesSubviews)
        #expect(Window(frame: .zero).autoresizingMask.isEmpty)
    }

    @Test func rawValuesAreUIViewAutoresizings() {
        typealias M = View.AutoresizingMask
        let all: [(M, UInt)] = [
            (.flexibleLeftMargin, 1), (.flexibleWidth, 2), (.flexibleRightMargin, 4),
            (.flexibleTopMargin, 8), (.flexibleHeight, 16), (.flexibleBottomMargin, 32),
        ]
        for (mask, raw) in all { #expect(mask.rawValue == raw) }
        let size: M = [.flexibleWidth, .flexibleHeight]
        #expect(size.rawValue == 18 && size.contains(.flexibleWidth) && !size.contains(.flexibleLeftMargin))
    }

    @Test func storedPerViewAndIndependentOfOtherRecords() {
        let a = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let b = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        a.autoresizingMask = [.flexibleWidth, .flexibleBottomMargin]
        a.autoresizesSubviews = false
        a.hitTestInsets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        a.isExclusiveTouch = true
        #expect(a.autoresizingMask == [.flexibleWidth, .flexibleBottomMargin])
        #expect(!a.autoresizesSubviews)
        #expect(a.hitTestInsets == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4) && a.isExclusiveTouch)
        #expect(b.autoresizingMask == [] && b.autoresizesSubviews && !b.isExclusiveTouch)
        a.autoresizingMask.insert(.flexibleHeight)
        #expect(a.autoresizingMask.contains(.flexibleHeight))
    }

    @Test func theMaskDoesNotChangeHitTesting() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        window.addSubview(child)
        let points = stride(from: -5.0, through: 105, by: 5).flatMap { x in
            stride(from: -5.0, through: 105, by: 5).map { Point(x: x, y: $0) }
        }
        let before = points.map { window.hitTest($0) }
        child.autoresizingMask = [.flexibleWidth, .flexibleHeight, .flexibleLeftMargin]
        window.autoresizesSubviews = false
        let after = points.map { window.hitTest($0) }
        #expect(zip(before, after).allSatisfy { $0 === $1 })
        #expect(zip(points, after).allSatisfy { Reference.hitTest(window, $0) === $1 })
        #expect(window.mirrorMismatches() == [])
    }

    @Test func theMaskIsCodableAsItsRawValue() throws {
        let mask: View.AutoresizingMask = [.flexibleTopMargin, .flexibleRightMargin]
        let data = try JSONEncoder().encode(mask)
        #expect(String(decoding: data, as: UTF8.self) == "12")
        #expect(try JSONDecoder().decode(View.AutoresizingMask.self, from: data) == mask)
    }
}
