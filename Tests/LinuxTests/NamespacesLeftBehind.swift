import Foundation
import Linux

/// The namespaces a test left behind. Every suite runs at once on one machine and makes and
/// removes namespaces of its own meanwhile, so comparing the machine's whole list before and
/// after tells nothing: left behind is a namespace that appeared since `before` and whose maker —
/// the pid each of ours carries ("tvrun-PID-N", "tvlab-PID-…") — is gone.
enum NamespacesLeftBehind {
    static func since(_ before: Set<String>) throws -> Set<String> {
        Set(try NetworkNamespace.names()).subtracting(before).filter { name in
            let pid = name.split(separator: "-").dropFirst().first.map(String.init) ?? ""
            return pid.isEmpty || !FileManager.default.fileExists(atPath: "/proc/\(pid)")
        }
    }
}
