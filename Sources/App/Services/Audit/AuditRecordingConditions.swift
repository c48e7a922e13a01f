import Foundation
import Shared

/// Where and how a session is recorded (audit.md § From the app): the machine's model (DMI, as
/// the firmware names it), its kernel, this tool's version; and whether pinning can be told.
package enum AuditRecordingConditions {
    /// Read now from the machine; a part that cannot be read is said to be unknown, never guessed.
    package static func environment() -> AuditEnvironment {
        AuditEnvironment(deviceModel: machineModel(), osVersion: kernel(), toolVersion: "TunnelVision \(ProductVersion.current)")
    }

    static func machineModel(dmi: URL = URL(fileURLWithPath: "/sys/class/dmi/id")) -> String {
        func read(_ name: String) -> String? {
            guard let text = try? String(contentsOf: dmi.appendingPathComponent(name), encoding: .utf8) else { return nil }
            let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return line.isEmpty ? nil : line
        }
        let parts = [read("sys_vendor"), read("product_name")].compactMap { $0 }
        return parts.isEmpty ? "unknown machine (no DMI model)" : parts.joined(separator: " ")
    }

    static func kernel() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "Linux (release unknown)" }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))"
    }
}

extension AuditRecordingConditions {
    /// `audit record`'s conditions: the run puts its own CA in the command's trust (its
    /// certificate files and environment), so an inspected run's CA is trusted unless the command
    /// keeps a store of its own — which is what the pinning check then records.
    package static func recordedCommand(inspecting: Bool) -> InspectionConditions {
        InspectionConditions(inspectionEnabled: inspecting, caTrusted: inspecting)
    }

    /// The system's trust bundle, which OpenSSL and GnuTLS read on Debian (update-ca-certificates).
    static let systemTrustBundle = URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt")

    /// Whether the data directory's CA is in `bundle`: a host-wide session's programs trust it only
    /// if the person put it there (TunnelVision never writes the host's trust store). Read, never
    /// assumed: a missing CA or an unreadable bundle is "not trusted". Programs with their own
    /// store (a browser's, Java's) are not covered, and the report says whose trust was read.
    static func caInSystemTrust(dataDirectory: URL, bundle: URL = systemTrustBundle) -> Bool {
        func bodies(_ text: String) -> Set<String> {
            var found = Set<String>(), current: String?
            for line in text.split(whereSeparator: \.isNewline) {
                if line.hasPrefix("-----BEGIN CERTIFICATE-----") { current = "" }
                else if line.hasPrefix("-----END CERTIFICATE-----") { if let body = current { found.insert(body) }; current = nil }
                else if current != nil { current! += line.trimmingCharacters(in: .whitespaces) }
            }
            return found
        }
        guard let ca = try? String(contentsOf: DataDirectoryLayout.caCertificate(in: dataDirectory), encoding: .utf8),
              let system = try? String(contentsOf: bundle, encoding: .utf8) else { return false }
        let ours = bodies(ca)
        return !ours.isEmpty && ours.isSubset(of: bodies(system))
    }
}
