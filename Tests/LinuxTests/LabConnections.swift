import Foundation
import Linux
import TestSupport

/// The end of a lab's TCP connections, waited for with a deadline: a capture or a tunnel stopped
/// after it has seen every connection close (both FINs acknowledged leaves a socket in TIME_WAIT,
/// which counts as ended).
enum LabConnections {
    /// Waits until `namespace` holds no TCP connection to one of `ports` (to any port, when none
    /// is given) that has not ended; throws when one is still open after `seconds`.
    static func waitUntilEnded(toPorts ports: [Int] = [], in namespace: NetworkNamespace, within seconds: Double = 10) throws {
        let filter = ports.isEmpty ? [] : ["( " + ports.map { "dport = :\($0)" }.joined(separator: " or ") + " )"]
        var open = ""
        let ended = try eventually(within: seconds) {
            open = try namespace.run(["ss", "-Htn", "state", "connected", "exclude", "time-wait"] + filter).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return open.isEmpty
        }
        guard ended else { throw HandshakeCapture.Failed(description: "connections still open after \(seconds) s: \(open)") }
    }
}
