import Foundation

/// RFC 9110 §8.4.1: the content codings a body is read through — gzip, deflate (zlib's format,
/// RFC 1950) and br (RFC 7932). "identity" is no coding; any other name is one this reader does
/// not know, and says so.
package enum ContentCoding: String, Sendable, Equatable, CaseIterable {
    case gzip, deflate, br

    /// The codings of a Content-Encoding value in the order they were applied; "x-gzip" is gzip
    /// (§8.4.1.3). Nil with the first name not known.
    package static func list(_ value: String) -> Result<[ContentCoding], UnknownCoding> {
        var codings: [ContentCoding] = []
        for token in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !token.isEmpty {
            if token == "identity" { continue }
            guard let coding = token == "x-gzip" ? .gzip : ContentCoding(rawValue: token) else { return .failure(UnknownCoding(name: token)) }
            codings.append(coding)
        }
        return .success(codings)
    }

    package struct UnknownCoding: Error, Equatable {
        package let name: String
        package init(name: String) { self.name = name }
    }
}
