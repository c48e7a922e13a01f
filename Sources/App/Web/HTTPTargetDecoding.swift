/// A request target's path and query, percent-decoded (RFC 3986 § 2.1). In the query, `+` is a
/// space, as HTML forms and `URLSearchParams` encode one; in the path it is itself.
enum HTTPTargetDecoding {
    static func split(_ target: String) throws(HTTPRefusal) -> (path: String, query: [HTTPQueryItem]) {
        let bytes = Array(target.utf8)
        let mark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let path = try decode(bytes[..<mark], plusIsSpace: false)
        guard mark < bytes.endIndex else { return (path, []) }
        var query: [HTTPQueryItem] = []
        for pair in bytes[(mark + 1)...].split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let name = try decode(pair[..<equals], plusIsSpace: true)
            let value = equals < pair.endIndex ? try decode(pair[(equals + 1)...], plusIsSpace: true) : ""
            query.append(HTTPQueryItem(name, value))
        }
        return (path, query)
    }

    /// The text `%XX` escapes stand for; a bad escape or an encoded NUL is refused.
    static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) throws(HTTPRefusal) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw .badPercentEncoding
                }
                let value = high << 4 | low
                if value == 0 { throw .badPercentEncoding }
                decoded.append(value)
                index += 3
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
