import Foundation
import Linux

/// The benchmarks' own programs, beside the lab's (`LabScripts`) but never shipped with the
/// product: Python 3 files in `Scripts/`, placed beside the build as `TunnelVision_Bench.resources`.
package enum BenchScripts {
    /// The command line that runs `Scripts/NAME.py` with `arguments`.
    package static func script(_ name: String, _ arguments: String...) -> [String] {
        [LabScripts.python, directory.appendingPathComponent(name + ".py").path] + arguments
    }

    /// Looked up by hand, as `LabScripts.scriptsDirectory` is and for its reason.
    static var directory: URL { Bundle.main.bundleURL.appendingPathComponent("TunnelVision_Bench.resources/Scripts") }
}
