// `hitTest(_:with:)` and `point(inside:with:)` are declared in View's class body (View.swift),
// `open` as in UIKit; this file holds what the C index needs to honour overrides.

extension View {
    /// The classes of this library, none of which overrides `hitTest(_:with:)` or
    /// `point(inside:with:)`: their views are walked entirely in C. A view of any other class
    /// (a subclass you define) may override them, so the C walk asks it through Swift, as
    /// UIKit's recursion would (docs/hit-testing.md, "Overriding, as in UIKit").
    static let classesWalkedInC: Set<ObjectIdentifier> = [
        ObjectIdentifier(View.self), ObjectIdentifier(Window.self), ObjectIdentifier(ScrollView.self),
        ObjectIdentifier(Control.self), ObjectIdentifier(Button.self),
    ]
}
