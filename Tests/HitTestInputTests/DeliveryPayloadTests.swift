@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// A log entry keeps its reason compact (a scroll's offset as two numbers) and writes the text
/// when it is read: every property, `description`, equality and hashing must be those of the
/// entry built with the text.
@Suite struct DeliveryPayloadTests {
    /// Offsets whose texts are the hard cases of `Double.description`: signed zeros, the
    /// extremes, subnormals, integers past 2^53, exponents, NaNs and infinities (not reachable
    /// from a scroll view, whose offsets are finite, but the payload must not care).
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 0.1, -0.1, 1.0 / 3, 12.5, -437.25, 1e16, 1e-7, 123_456_789.123, 9_007_199_254_740_992, 9_007_199_254_740_994,
        Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
        Double.leastNormalMagnitude, -Double.leastNonzeroMagnitude, Double.ulpOfOne, .pi * 1e300,
        .infinity, -.infinity, .nan, -Double.nan, Double.signalingNaN,
    ]

    let responder = View()

    /// The entry a scroll records now (the offset kept as numbers) and the entry built from
    /// the text as before (`offsetText` then, at record time).
    func pair(_ x: Double, _ y: Double, touch: Int? = nil) -> (compact: TouchDelivery, text: TouchDelivery) {
        let id = ObjectIdentifier(responder)
        let compact = TouchDelivery(
            timestamp: 1.5, touch: touch, phase: nil, kind: .scrolled, responder: id, responderName: "table",
            payload: .offset(Point(x: x, y: y)))
        let text = TouchDelivery(
            timestamp: 1.5, touch: touch, phase: nil, kind: .scrolled, responder: id, responderName: "table",
            reason: ScrollView.offsetText(Point(x: x, y: y)))
        return (compact, text)
    }

    @Test func offsetEntriesReadAsTheirText() {
        for x in Self.numbers {
            for y in Self.numbers {
                for touch in [nil, 3] as [Int?] {
                    let (compact, text) = pair(x, y, touch: touch)
                    #expect(compact.reason == text.reason)
                    if !x.isNaN && !y.isNaN {
                        // (`offsetText` writes every NaN as `nan`; interpolation tells `-nan`
                        // and `snan` apart. Offsets are finite: bounds must be.)
                        #expect(compact.reason == "contentOffset \(Point(x: x, y: y))")
                    }
                    #expect(compact.detail == text.detail)
                    #expect(compact.description == text.description)
                    #expect(compact == text)
                    #expect(text == compact)
                    #expect(compact.hashValue == text.hashValue)
                    #expect(Set([compact, text]).count == 1)
                }
            }
        }
    }

    /// Two offsets are equal entries exactly when their texts are equal (`0.0` and `-0.0`
    /// differ, as their texts do; all NaNs print alike and so are equal entries).
    @Test func offsetEqualityIsTextEquality() {
        for a in Self.numbers {
            for b in Self.numbers {
                let (ca, ta) = pair(a, 2)
                let (cb, tb) = pair(b, 2)
                #expect((ca == cb) == (ta == tb))
                #expect((ca == cb) == (ca.reason == cb.reason))
                if ca == cb { #expect(ca.hashValue == cb.hashValue) }
            }
        }
        #expect(pair(0, 0).compact != pair(-0.0, 0).compact)
        #expect(pair(1, 2).compact != pair(2, 1).compact)
    }

    /// Setting `reason` stores the text; setting nil clears it; text payloads behave as before.
    @Test func settingReasonStoresText() {
        var (compact, text) = pair(4, 5)
        compact.reason = "x"
        text.reason = "x"
        #expect(compact == text && compact.hashValue == text.hashValue && compact.description == text.description)
        compact.reason = nil
        #expect(compact.reason == nil && compact.detail == nil)
        #expect(compact.description == "1.5 scrolled table: ")
        #expect(compact != text)
        let plain = TouchDelivery(
            timestamp: 0, touch: 1, phase: .began, kind: .ignored, responder: ObjectIdentifier(responder),
            responderName: "v", reason: "held by tap")
        #expect(plain.reason == "held by tap" && plain.detail == nil)
        #expect(plain.description == "0.0 touch 1 began ignored v (held by tap)")
    }

    /// `touch` is kept as a flag and a number: every value reads back, nil included; and an
    /// entry is no bigger than one holding `reason` as a `String?` was (64 bytes).
    @Test func touchReadsBackAndEntriesStaySmall() {
        for touch in [nil, 0, 1, -1, Int.min, Int.max] as [Int?] {
            var (compact, text) = pair(1, 2, touch: touch)
            #expect(compact.touch == touch && text.touch == touch)
            compact.touch = 7
            #expect(compact.touch == 7)
            compact.touch = touch
            #expect(compact == text && compact.hashValue == text.hashValue)
            text.touch = nil
            #expect(text.touch == nil)
            #expect((compact == text) == (touch == nil))
        }
        #expect(MemoryLayout<TouchDelivery>.stride <= 64)
    }

    /// A real scroll records its offset compactly, and the entry reads as the offset's text.
    @Test func aScrollRecordsItsOffset() {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        app.addWindow(window)
        let scroll = ScrollView(frame: window.bounds)
        scroll.contentSize = Size(width: 320, height: 2000)
        window.addSubview(scroll)
        scroll.contentOffset = Point(x: 0, y: 12.25)
        scroll.contentOffset = Point(x: -0.0, y: 1.0 / 3)
        let entries = app.deliveryLog.filter { $0.kind == .scrolled }
        #expect(entries.map(\.detail) == ["contentOffset (0.0, 12.25)", "contentOffset (-0.0, \(1.0 / 3))"])
        for entry in entries {
            guard case .offset = entry.payload else {
                Issue.record("a scroll's entry keeps its offset as numbers")
                continue
            }
        }
    }
}
