import Foundation
import TestSupport

/// The openssl command line, an outside oracle for certificates: it makes real ones (a CA and a
/// leaf it issues) and says what their subject, issuer and notAfter are, independently of
/// `ServerCertificateReader`.
struct OpenSSLCommand {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    let directory = TemporaryDirectory("tunnelvision-openssl")

    static func executable() throws -> URL {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("openssl")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failed(description: "openssl is not installed (apt-get install openssl)")
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let result = try BuiltProduct.run(try Self.executable(), arguments)
        guard result.status == 0 else { throw Failed(description: "openssl \(arguments.joined(separator: " ")): \(result.err)") }
        return result.out
    }

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// A P-256 certificate `name`.pem with key `name`.key: self-signed, or issued by `issuer`.
    func makeCertificate(_ name: String, subject: String, days: Int, issuer: String? = nil,
                         extraArguments: [String] = []) throws {
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", path("\(name).key")]
        guard let issuer else {
            try run(["req", "-x509"] + key + ["-subj", subject, "-days", String(days), "-out", path("\(name).pem")] + extraArguments)
            return
        }
        try run(["req", "-new"] + key + ["-subj", subject, "-out", path("\(name).csr")] + extraArguments)
        try run(["x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuer).pem"), "-CAkey", path("\(issuer).key"),
                 "-set_serial", "2", "-days", String(days), "-out", path("\(name).pem")])
    }

    func der(_ name: String) throws -> [UInt8] {
        try run(["x509", "-in", path("\(name).pem"), "-outform", "DER", "-out", path("\(name).der")])
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path("\(name).der"))))
    }

    /// What openssl prints for `field` (subject or issuer), in forward order with RFC 2253
    /// escaping — the format `DistinguishedNameText` documents, except that openssl writes " + "
    /// inside a multi-valued RDN where we write "+".
    func name(_ field: String, of name: String) throws -> String {
        let line = try run(["x509", "-in", path("\(name).pem"), "-noout", "-\(field)",
                            "-nameopt", "sep_comma_plus_space,esc_2253,esc_ctrl,utf8,sname"])
        let prefix = "\(field)="
        return String(line.trimmingCharacters(in: .newlines).dropFirst(prefix.count)).replacingOccurrences(of: " + ", with: "+")
    }

    /// notAfter, as `openssl x509 -enddate -dateopt iso_8601` prints it.
    func notAfter(of name: String) throws -> Date {
        let line = try run(["x509", "-in", path("\(name).pem"), "-noout", "-enddate", "-dateopt", "iso_8601"])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        let text = line.trimmingCharacters(in: .newlines).replacingOccurrences(of: "notAfter=", with: "")
        guard let date = formatter.date(from: text) else { throw Failed(description: "unreadable date \(text)") }
        return date
    }

    /// The DER type of the notAfter, from `openssl asn1parse` ("UTCTIME" or "GENERALIZEDTIME").
    func notAfterType(of name: String) throws -> String {
        let dump = try run(["asn1parse", "-in", path("\(name).pem")])
        let times = dump.split(separator: "\n").filter { $0.contains("UTCTIME") || $0.contains("GENERALIZEDTIME") }
        guard times.count >= 2 else { throw Failed(description: "no validity in \(dump)") }
        return times[1].contains("GENERALIZEDTIME") ? "GENERALIZEDTIME" : "UTCTIME"
    }
}
