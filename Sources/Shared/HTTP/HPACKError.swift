/// Why a header block could not be decoded (RFC 7541 §2.1: a decoding error ends the connection's
/// compression context, so nothing after it in that direction can be decoded either).
package enum HPACKError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The block ended inside a representation.
    case truncated
    /// An integer over `HPACKDecoder.maxInteger` (§5.1).
    case integerTooLarge
    /// An index into neither table (§2.3.3).
    case indexOutOfRange(Int)
    case huffman(String)
    /// A dynamic table size update over the limit the decoding side announced (§4.2, §6.3).
    case tableSizeOverLimit(size: Int, limit: Int)
    /// A dynamic table size update after a field of the same block (§4.2).
    case tableSizeUpdateAfterField
    /// More fields in one block than `HPACKDecoder.maxFields`.
    case tooManyFields

    package var description: String {
        switch self {
        case .truncated: "a header block ended inside a field"
        case .integerTooLarge: "an integer too large to be real"
        case let .indexOutOfRange(index): "a reference to table entry \(index), which does not exist"
        case let .huffman(reason): "a Huffman-coded string with \(reason)"
        case let .tableSizeOverLimit(size, limit): "a table size of \(size) bytes, over the \(limit) allowed"
        case .tableSizeUpdateAfterField: "a table size update after a field"
        case .tooManyFields: "more than \(HPACKDecoder.maxFields) fields in one block"
        }
    }
}
