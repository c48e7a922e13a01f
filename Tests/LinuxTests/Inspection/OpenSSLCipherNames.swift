import Foundation
import Linux

/// OpenSSL's cipher names and their IANA code points, as `openssl ciphers -V` lists them: the
/// outside reading that turns what `s_client` / `s_server` print into the value we report.
enum OpenSSLCipherNames {
    static func codePoints() throws -> [String: UInt16] {
        let listing = try ExternalCommand.run(["openssl", "ciphers", "-V", "ALL:TLSv1.3"]).standardOutput
        var names: [String: UInt16] = [:]
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: " ")  // "0x13,0x02 - TLS_AES_256_GCM_SHA384 TLSv1.3 …"
            guard fields.count > 2, fields[1] == "-" else { continue }
            let bytes = fields[0].split(separator: ",").compactMap { UInt8($0.dropFirst(2), radix: 16) }
            guard bytes.count == 2 else { continue }
            names[String(fields[2])] = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        }
        return names
    }

    /// "New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384" → ("TLSv1.3", "TLS_AES_256_GCM_SHA384").
    static func reported(in output: String) -> (version: String, cipher: String)? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("New, ") }) else { return nil }
        let parts = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3, parts[2].hasPrefix("Cipher is ") else { return nil }
        return (parts[1], String(parts[2].dropFirst("Cipher is ".count)))
    }
}
