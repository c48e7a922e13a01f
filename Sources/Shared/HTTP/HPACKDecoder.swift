/// HPACK's decoder (RFC 7541): one direction's header blocks, read in the order sent, into header
/// lists. It keeps that direction's dynamic table (§2.3.2), so blocks must be given in order and
/// after an error none can be read (the table is no longer known). Pure.
package struct HPACKDecoder: Sendable {
    /// The dynamic table, newest first (§2.3.3: the newest has the lowest index).
    private var dynamic: [(name: String, value: String, size: Int)] = []
    /// The table's size as §4.1 counts it: each entry's name and value lengths plus 32.
    package private(set) var tableSize = 0
    /// The size the encoder last set (§6.3); starts at the limit.
    package private(set) var maxTableSize: Int
    /// SETTINGS_HEADER_TABLE_SIZE of the side that decodes: an update may not exceed it.
    package var tableSizeLimit: Int

    /// §6.5.2's default SETTINGS_HEADER_TABLE_SIZE.
    package static let defaultTableSize = 4096
    static let entryOverhead = 32
    /// Bounds the work on one block; real header lists have tens of fields.
    package static let maxFields = 2_000
    /// No length or index in a real block comes near it; a larger integer is refused, not wrapped.
    static let maxInteger = 1 << 30

    package init(tableSizeLimit: Int = defaultTableSize) {
        self.tableSizeLimit = tableSizeLimit
        maxTableSize = tableSizeLimit
    }

    /// The fields of one whole header block (a HEADERS or PUSH_PROMISE fragment with its
    /// CONTINUATIONs, §4.3 of RFC 9113), in order.
    package mutating func decode(_ block: ArraySlice<UInt8>) throws(HPACKError) -> [HPACKHeaderField] {
        var fields: [HPACKHeaderField] = []
        var position = block.startIndex
        while position < block.endIndex {
            let first = block[position]
            if first & 0x80 != 0 {                        // §6.1 indexed field
                let index = try Self.integer(block, &position, prefix: 7)
                let (name, value) = try entry(index)
                fields.append(HPACKHeaderField(name: name, value: value))
            } else if first & 0x40 != 0 {                 // §6.2.1 literal, with incremental indexing
                let (name, value) = try literal(block, &position, prefix: 6)
                fields.append(HPACKHeaderField(name: name, value: value))
                insert(name: name, value: value)
            } else if first & 0x20 != 0 {                 // §6.3 dynamic table size update
                guard fields.isEmpty else { throw .tableSizeUpdateAfterField }
                let size = try Self.integer(block, &position, prefix: 5)
                guard size <= tableSizeLimit else { throw .tableSizeOverLimit(size: size, limit: tableSizeLimit) }
                maxTableSize = size
                evict(toFit: 0)
            } else {                                      // §6.2.2 without indexing, §6.2.3 never indexed
                let neverIndexed = first & 0x10 != 0
                let (name, value) = try literal(block, &position, prefix: 4)
                fields.append(HPACKHeaderField(name: name, value: value, neverIndexed: neverIndexed))
            }
            guard fields.count <= Self.maxFields else { throw .tooManyFields }
        }
        return fields
    }

    /// §2.3.3: 1…61 the static table, then the dynamic table newest first.
    private func entry(_ index: Int) throws(HPACKError) -> (String, String) {
        let staticCount = HPACKStaticTable.entries.count
        if index >= 1, index <= staticCount { return HPACKStaticTable.entries[index - 1] }
        let dynamicIndex = index - staticCount - 1
        guard index > staticCount, dynamicIndex < dynamic.count else { throw .indexOutOfRange(index) }
        return (dynamic[dynamicIndex].name, dynamic[dynamicIndex].value)
    }

    /// A literal's name (indexed, or a string when the index is 0) and its value string.
    private func literal(_ block: ArraySlice<UInt8>, _ position: inout Int, prefix: Int) throws(HPACKError) -> (String, String) {
        let index = try Self.integer(block, &position, prefix: prefix)
        let name = index == 0 ? try Self.string(block, &position) : try entry(index).0
        return (name, try Self.string(block, &position))
    }

    /// §4.4: an entry larger than the table empties it and is not added.
    private mutating func insert(name: String, value: String) {
        let size = name.utf8.count + value.utf8.count + Self.entryOverhead
        evict(toFit: size)
        guard size <= maxTableSize else { return }
        dynamic.insert((name, value, size), at: 0)
        tableSize += size
    }

    /// §4.4: the oldest entries go until `size` more bytes fit under the maximum.
    private mutating func evict(toFit size: Int) {
        while tableSize + size > maxTableSize, let oldest = dynamic.popLast() { tableSize -= oldest.size }
    }

    /// §5.1: an integer in the low `prefix` bits of the first byte, continued 7 bits a byte.
    static func integer(_ block: ArraySlice<UInt8>, _ position: inout Int, prefix: Int) throws(HPACKError) -> Int {
        guard position < block.endIndex else { throw .truncated }
        let mask = (1 << prefix) - 1
        var value = Int(block[position]) & mask
        position += 1
        guard value == mask else { return value }
        var shift = 0
        while true {
            guard position < block.endIndex else { throw .truncated }
            let byte = block[position]
            position += 1
            value += Int(byte & 0x7f) << shift
            guard value <= maxInteger else { throw .integerTooLarge }
            if byte & 0x80 == 0 { return value }
            shift += 7
            guard shift <= 28 else { throw .integerTooLarge }   // zero continuations cannot grow it unseen
        }
    }

    /// §5.2: H, a 7-bit-prefix length, then the octets, Huffman-coded when H is set.
    static func string(_ block: ArraySlice<UInt8>, _ position: inout Int) throws(HPACKError) -> String {
        guard position < block.endIndex else { throw .truncated }
        let huffman = block[position] & 0x80 != 0
        let length = try integer(block, &position, prefix: 7)
        guard length <= block.endIndex - position else { throw .truncated }
        let octets = block[position..<(position + length)]
        position += length
        return String(decoding: huffman ? try HPACKHuffman.decode(octets)[...] : octets, as: UTF8.self)
    }
}
