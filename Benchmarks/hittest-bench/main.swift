import HitTestKit
import HitTestReference

print("hittest-bench: see issue 3")
