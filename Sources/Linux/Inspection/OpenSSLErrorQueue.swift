import COpenSSL

/// OpenSSL's error queue, which is per thread: cleared before each call so a reason read after it
/// is this call's, and emptied into words when one fails.
enum OpenSSLErrorQueue {
    static func clear() { ERR_clear_error() }

    /// Every queued reason, oldest first, joined; `fallback` when the queue is empty (a failure
    /// OpenSSL did not explain, e.g. the peer's bytes simply ended).
    static func drain(fallback: String) -> String {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            if let reason = ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            } else {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return reasons.isEmpty ? fallback : reasons.joined(separator: "; ")
    }
}
