// hittest: UIKit's hit testing over scene files. See `hittest --help`.
import Foundation
import HitTestCLI

exit(HitTestCLI.run(Array(CommandLine.arguments.dropFirst())))
