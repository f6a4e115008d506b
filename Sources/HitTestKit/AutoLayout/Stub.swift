final class AutoLayoutNode {
    var ownedEngine: LayoutEngine?
    func guidesDidChange(_ v: View) {}
    func intrinsicSizeDidChange(_ v: View) {}
}
final class LayoutEngine {
    var isDirty = false
    func solveIfNeeded() {}
    func safeAreaDidChange() {}
}
extension View {
    func autoLayoutGeometryDidChange() {}
    func applyAutoLayoutFrames() {}
    func autoLayoutDidInsert(_ view: View, from old: View?) {}
    func autoLayoutDidRemove(from old: View) {}
}
