/// One header field as an HPACK block carried it (RFC 7541 §2.1). Names and values are bytes on
/// the wire; they are held as text, any byte that is not UTF-8 shown as U+FFFD.
package struct HPACKHeaderField: Sendable, Equatable {
    package let name: String
    package let value: String
    /// Sent as "never indexed" (§6.2.3): the sender marked it sensitive, e.g. a cookie or a token.
    package let neverIndexed: Bool

    package init(name: String, value: String, neverIndexed: Bool = false) {
        self.name = name
        self.value = value
        self.neverIndexed = neverIndexed
    }
}
