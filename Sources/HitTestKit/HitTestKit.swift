// The umbrella module: `import HitTestKit` gives every public name of the layers below, spelled
// as UIKit's. The layers are separate targets so that the compiler enforces their direction
// (ARCHITECTURE.md, "Layers"); users never need to import them one by one.
@_exported import HitTestCore
@_exported import HitTestInput
@_exported import HitTestLayout
@_exported import HitTestAnimation
