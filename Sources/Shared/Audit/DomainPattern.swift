import Foundation

/// A host an audit project allows (audit.md § Types): `example.com` is that name exactly;
/// `*.example.com` is every name under it, at any depth (`a.b.example.com`), but not
/// `example.com` itself, and never a name that only ends in the same letters
/// (`notexample.com`): matching is by labels. Patterns are ASCII (an international name is
/// written `xn--…`); letters, digits, `-` and `_` in labels; a wildcard only as the first label.
/// `text` is the canonical form, stored and shown. Pure.
package struct DomainPattern: Sendable, Hashable, CustomStringConvertible {
    package enum Scope: Sendable, Hashable {
        case exact
        case subdomains
    }

    package enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        case misplacedWildcard
        case nonASCII
        case emptyLabel
        case labelTooLong(String)
        case nameTooLong
        case invalidCharacter(Character)

        package var description: String {
            switch self {
            case .empty: "a domain pattern needs a name (example.com, or *.example.com for the names under it)"
            case .misplacedWildcard: "a wildcard is allowed only as the whole first label: *.example.com"
            case .nonASCII: "a domain pattern is ASCII: write an international name as its xn-- form"
            case .emptyLabel: "a domain pattern has an empty label (two dots together, or a dot at its start)"
            case let .labelTooLong(label): "the label '\(label)' is longer than \(DomainPattern.maxLabelLength) characters"
            case .nameTooLong: "the name is longer than \(DomainPattern.maxNameLength) characters"
            case let .invalidCharacter(character): "'\(character)' cannot be in a domain name: letters, digits, - and _ only"
            }
        }
    }

    /// RFC 1035 §2.3.4.
    static let maxLabelLength = 63
    package static let maxNameLength = 253

    package let scope: Scope
    /// Normalised, without the `*.`.
    package let name: String

    /// Reads `text`, surrounding spaces ignored, case and one trailing dot normalised away.
    package init(parsing text: String) throws(ParseError) {
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !rest.isEmpty else { throw .empty }
        guard rest.unicodeScalars.allSatisfy(\.isASCII) else { throw .nonASCII }
        if rest.hasPrefix("*.") {
            scope = .subdomains
            rest = rest.dropFirst(2)
        } else {
            scope = .exact
        }
        guard !rest.contains("*") else { throw .misplacedWildcard }
        let name = Self.normalised(host: String(rest))
        guard !name.isEmpty else { throw .empty }
        guard name.count <= Self.maxNameLength else { throw .nameTooLong }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw .emptyLabel }
            guard label.count <= Self.maxLabelLength else { throw .labelTooLong(String(label)) }
            if let wrong = label.first(where: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
                throw .invalidCharacter(wrong)
            }
        }
        self.name = name
    }

    /// `example.com` or `*.example.com`: what is stored and shown.
    package var text: String { scope == .exact ? name : "*." + name }

    package var description: String { text }

    /// Whether `host` (as a connection names it) is one this pattern allows.
    package func matches(_ host: String) -> Bool {
        let host = Self.normalised(host: host)
        switch scope {
        case .exact: return host == name
        case .subdomains: return host.count > name.count + 1 && host.hasSuffix("." + name)
        }
    }

    /// A host as patterns compare it: lowercase, without a trailing dot.
    package static func normalised(host: String) -> String {
        let lower = host.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }
}
