import Shared

/// Why a search (`FlowQuery`) cannot be read: the term as it was typed and what is wrong with it.
/// Its description is the one sentence a person reads — `flows --search` prints it as a usage
/// error (exit status 2), the web API answers it with 400 and the Timeline shows it beside the
/// search field, the person's text left as it was. The caller never guesses a meaning instead:
/// the person corrects the term.
struct FlowQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Problem: Sendable, Equatable {
        /// A `"` with no closing one.
        case unclosedQuote
        /// A `-` with nothing after it.
        case loneMinus
        /// `""`: a phrase with nothing in it.
        case emptyPhrase
        /// `KEY:…` with a key that is not one of `FlowQuery.Key` (written as typed).
        case unknownKey(String)
        /// `port:`, `port:80,`: a value (or one between commas) with nothing in it.
        case emptyValue(FlowQuery.Key)
        /// A port that is not 0-65535, or a range that is not two of them joined by `-`.
        case badPort(String)
        /// `port:N-M` with M below N.
        case reversedPortRange(String)
        case unknownProtocol(String)
        case unknownStatus(String)
        /// An address followed by `/` and something that is not a prefix length of its family.
        case badPrefixLength(String, IPFamilyBits)
        /// `ja3:`/`ja3s:` with a value that is not an MD5 hash (32 hex digits).
        case badFingerprintHash(String)
        /// `ja4s:`, `ja4x:`: fingerprints TunnelVision does not compute (`ServerHelloFingerprints`
        /// says why); the person searches what is computed instead.
        case fingerprintNotComputed(String)
    }

    /// The bits of an address of one family: what a prefix length may be at most.
    enum IPFamilyBits: Int, Sendable, Equatable {
        case v4 = 32
        case v6 = 128
    }

    /// The term as the person typed it (its `-` and quotes included).
    let term: String
    let problem: Problem

    init(_ term: String, _ problem: Problem) {
        self.term = term
        self.problem = problem
    }

    var description: String {
        switch problem {
        case .unclosedQuote:
            "'\(term)' opens a quote it does not close: end the phrase with another \""
        case .loneMinus:
            "'-' on its own excludes nothing: put it right before a term, as in -port:53"
        case .emptyPhrase:
            "'\(term)' is an empty phrase: put the words to look for between the quotes"
        case .unknownKey(let key):
            "'\(term)' has an unknown key '\(key)': give host:, port:, proto:, status:, program:, http:, ja4:, ja3: or ja3s:, "
                + "or write an IPv6 address whole (fd00::1)"
        case .emptyValue(let key):
            "'\(term)' has an empty value: give one after \(key.rawValue):, several separated by commas, as in \(key.example)"
        case .badPort(let value):
            "'\(value)' in '\(term)' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"
        case .reversedPortRange(let value):
            "'\(value)' in '\(term)' is a range that ends before it starts: give the lower port first"
        case .unknownProtocol(let value):
            "'\(value)' in '\(term)' is not a protocol: give tcp, udp, icmp, icmpv6 or a number 0-255"
        case .unknownStatus(let value):
            "'\(value)' in '\(term)' is not a status: give "
                + TLSInspectionStatus.allCases.map(HistoryFlowWording.statusIdentifier).joined(separator: ", ")
        case .fingerprintNotComputed(let key):
            "'\(term)' asks for \(key.uppercased()), which TunnelVision does not compute (its licence, the FoxIO License 1.1, "
                + "allows only non-commercial use): search ja4:, ja3: or ja3s: instead"
        case .badFingerprintHash(let value):
            "'\(value)' in '\(term)' is not a JA3 or JA3S hash: give its 32 hex digits, as in \(FlowQuery.Key.ja3.example)"
        case .badPrefixLength(let value, let bits):
            "'/\(value)' in '\(term)' is not a prefix length: give 0 to \(bits.rawValue) after an \(bits == .v4 ? "IPv4" : "IPv6") address"
        }
    }
}
