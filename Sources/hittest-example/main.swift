// A small tour: build a screen, hit-test a few points, convert one.
import HitTestKit

let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
let card = View(frame: Rect(x: 20, y: 100, width: 350, height: 200))
let button = View(frame: Rect(x: 250, y: 150, width: 80, height: 32))
let label = View(frame: Rect(x: 16, y: 16, width: 200, height: 24))
label.isUserInteractionEnabled = false
let badge = View(frame: Rect(x: 300, y: 90, width: 20, height: 20))
badge.transform = AffineTransform(rotationAngle: .pi / 4)
window.addSubview(card)
card.addSubview(label)
card.addSubview(button)
card.addSubview(badge)

let names = [ObjectIdentifier(window): "window", ObjectIdentifier(card): "card",
             ObjectIdentifier(button): "button", ObjectIdentifier(label): "label",
             ObjectIdentifier(badge): "badge"]
func name(_ v: View?) -> String { v.map { names[ObjectIdentifier($0)] ?? "?" } ?? "nil" }

for p in [Point(x: 300, y: 265), Point(x: 40, y: 120), Point(x: 330, y: 200), Point(x: 10, y: 10),
          Point(x: 500, y: 10)] {
    print("hitTest\(p) -> \(name(window.hitTest(p)))")
}
let local = window.convert(Point(x: 300, y: 265), to: button)
print("(300, 265) in button's space: \(local)")
let bulk = window.hitTest([Point(x: 300, y: 265), Point(x: 40, y: 120)])
print("bulk: \(bulk.map(name))")
