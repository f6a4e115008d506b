import Foundation
import HitTestKit

extension HitTestCLI {
    /// The CLI's coordinates: points are in the root's superview space, the screen (where the
    /// root's `frame` lies). `query`, `explain`, `render`, `audit` and `replay` all convert
    /// through here, and here through the library's one conversion step (`LevelConversion`),
    /// the arithmetic of `View.convert` and of the C walk.
    enum Screen {
        /// The root's rectangle on the screen (its frame: the bounding box under a transform).
        static func rect(_ root: View) -> Rect { root.frame }

        /// A point of the root's bounds space on the screen.
        static func fromRoot(_ p: Point, _ root: View) -> Point { LevelConversion(root).toSuperview(p) }

        /// A screen point in the root's bounds space (NaN when the root's transform is singular).
        static func toRoot(_ p: Point, _ root: View) -> Point { LevelConversion(root).fromSuperview(p) }
    }
}
