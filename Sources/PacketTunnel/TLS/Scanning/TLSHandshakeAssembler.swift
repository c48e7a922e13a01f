/// Turns a TLS byte stream, fed in chunks of any size, into its handshake messages — the layer the
/// three handshake scanners share.
///
/// Grammar read (RFC 8446 §5.1 and §4; RFC 5246 §6.2.1 and §7.4 for TLS ≤ 1.2):
///   record:    type(1) · legacy_record_version(2) · length(2) · fragment(length)
///   handshake: msg_type(1) · length(3) · body(length) — split over records or coalesced in one
///   alert:     level(1) · description(1) — exactly one per record
/// With `Framing.handshakeMessages` there is no record layer: the input is the handshake stream
/// itself, as a QUIC CRYPTO stream carries it (RFC 9001 §4.1.3).
///
/// The caller pulls one `Piece` at a time. A message's header comes before its body, so a caller
/// can settle on the type or the declared length without buffering anything; a body wholly inside
/// the current chunk is handed out in place, and only one split across chunks or records is copied,
/// up to `maxBodyBytes`. A record that is neither handshake nor alert ends the reading: the
/// scanners settle there, so its payload is never consumed.
package struct TLSHandshakeAssembler: Sendable {
    package enum Framing: Sendable, Equatable {
        /// A TCP stream: TLS records.
        case tlsRecords
        /// A QUIC CRYPTO stream: handshake messages with no record layer.
        case handshakeMessages
    }

    enum Piece: Sendable, Equatable {
        case needMoreBytes
        /// A message's four header bytes are in; its body comes next.
        case messageHeader(type: UInt8, length: Int)
        /// The body of the message announced last, or its first `maxBodyBytes` when it declared
        /// more (then the assembler reads nothing further).
        case messageBody(type: UInt8, length: Int, body: Body)
        case alert(level: UInt8, description: UInt8)
        /// A record of another content type (ChangeCipherSpec, application data…); nothing after
        /// it is read.
        case otherRecord(contentType: UInt8)
        case failure(Failure)
    }

    /// Where a body's bytes are: read them with `withBody` before the next `next`.
    enum Body: Sendable, Equatable {
        /// In place, in the input of the call that returned it.
        case input(Range<Int>)
        /// Copied, in the assembler's buffer.
        case buffered
    }

    enum Failure: Sendable, Equatable {
        /// A record header no TLS peer writes: an unknown content type, a major version other
        /// than 3. The stream is something else.
        case notTLS
        /// An empty handshake record (RFC 8446 §5.1 forbids them), an alert record not of exactly
        /// two bytes.
        case malformed
        /// A cleartext record over 2^14 bytes (record_overflow).
        case recordTooLarge
    }

    private enum Phase: Sendable {
        case recordHeader(collected: Int)
        case handshakeRecord(remaining: Int)
        case alertRecord(remaining: Int)
        /// A failure, another record type, or a truncated body: nothing more is read.
        case stopped
    }

    private enum Message: Sendable {
        case header(collected: Int)
        case body(type: UInt8, length: Int, wanted: Int)
        case handedOut(truncated: Bool)
    }

    let framing: Framing
    /// The most of one message body kept; a longer message is handed out cut, and ends the reading.
    var maxBodyBytes: Int
    private var phase: Phase
    private var message: Message = .header(collected: 0)
    private var recordHeaderBits: UInt64 = 0
    private var messageHeaderBits: UInt32 = 0
    private var alertLevel: UInt8 = 0
    private var buffer: [UInt8] = []

    init(framing: Framing, maxBodyBytes: Int) {
        self.framing = framing
        self.maxBodyBytes = max(0, maxBodyBytes)
        phase = framing == .tlsRecords ? .recordHeader(collected: 0) : .handshakeRecord(remaining: .max)
    }

    /// True while a message has begun and not been handed out: another record type arriving now
    /// interleaves with it, which RFC 8446 §5.1 forbids.
    var isInsideMessage: Bool {
        switch message {
        case .header(let collected): collected > 0
        case .body: true
        case .handedOut: false
        }
    }

    /// Bytes held for a message split across chunks.
    var bufferedByteCount: Int { buffer.count }

    /// Reads `input` from `offset` up to the next piece, advancing `offset` past what it consumed.
    mutating func next(_ input: UnsafeRawBufferPointer, _ offset: inout Int) -> Piece {
        if case .handedOut(let truncated) = message {
            buffer = []
            message = .header(collected: 0)
            if truncated { phase = .stopped }
        }
        while true {
            switch phase {
            case .stopped:
                return .needMoreBytes
            case .recordHeader(let collected):
                guard offset < input.count else { return .needMoreBytes }
                if let piece = readRecordHeaderByte(input[offset], collected: collected) {
                    offset += 1
                    return piece
                }
                offset += 1
            case .alertRecord(let remaining):
                guard offset < input.count else { return .needMoreBytes }
                let byte = input[offset]
                offset += 1
                if remaining == 2 {
                    alertLevel = byte
                    phase = .alertRecord(remaining: 1)
                } else {
                    phase = .recordHeader(collected: 0)
                    return .alert(level: alertLevel, description: byte)
                }
            case .handshakeRecord(let remaining):
                if let piece = readHandshake(input, &offset, remaining: remaining) { return piece }
            }
        }
    }

    /// Runs `read` over a body `next` just handed out.
    func withBody<R>(_ body: Body, in input: UnsafeRawBufferPointer, _ read: (UnsafeRawBufferPointer) -> R) -> R {
        switch body {
        case .input(let range): read(UnsafeRawBufferPointer(rebasing: input[range]))
        case .buffered: buffer.withUnsafeBytes(read)
        }
    }

    /// A body `next` just handed out, as an array: the buffer itself when it was copied (no second
    /// copy), else one copy of the input's bytes.
    mutating func takeBody(_ body: Body, in input: UnsafeRawBufferPointer) -> [UInt8] {
        switch body {
        case .input(let range): return [UInt8](UnsafeRawBufferPointer(rebasing: input[range]))
        case .buffered:
            defer { buffer = [] }
            return buffer
        }
    }

    // MARK: record layer

    /// One byte of a record header; a piece when the header (or its first bytes) settles one.
    private mutating func readRecordHeaderByte(_ byte: UInt8, collected: Int) -> Piece? {
        recordHeaderBits = recordHeaderBits << 8 | UInt64(byte)
        let count = collected + 1
        // Decided as early as the bytes allow, so a stream that is not TLS costs one byte or two.
        if count == 1, !TLSWire.knownContentTypes.contains(byte) { return stop(.failure(.notTLS)) }
        if count == 2, byte != 3 { return stop(.failure(.notTLS)) }
        guard count == TLSWire.recordHeaderLength else {
            phase = .recordHeader(collected: count)
            return nil
        }
        let type = UInt8(truncatingIfNeeded: recordHeaderBits >> 32)
        let length = Int(recordHeaderBits & 0xFFFF)
        recordHeaderBits = 0
        switch type {
        case TLSWire.handshake:
            guard length > 0 else { return stop(.failure(.malformed)) }
            guard length <= TLSWire.maxPlaintextRecordLength else { return stop(.failure(.recordTooLarge)) }
            phase = .handshakeRecord(remaining: length)
        case TLSWire.alert:
            guard length == TLSWire.alertLength else { return stop(.failure(.malformed)) }
            phase = .alertRecord(remaining: 2)
        default:
            return stop(.otherRecord(contentType: type))
        }
        return nil
    }

    private mutating func stop(_ piece: Piece) -> Piece {
        phase = .stopped
        return piece
    }

    // MARK: handshake layer

    /// Advances through the current handshake record's bytes; nil when the record ran out and the
    /// next record header is due.
    private mutating func readHandshake(_ input: UnsafeRawBufferPointer, _ offset: inout Int,
                                        remaining: Int) -> Piece? {
        var remaining = remaining
        defer { if case .handshakeRecord = phase { phase = .handshakeRecord(remaining: remaining) } }
        while true {
            switch message {
            case .handedOut:
                // `next` resets this before reading; unreachable within one call.
                return .needMoreBytes
            case .header(let collected):
                guard remaining > 0 else {
                    phase = .recordHeader(collected: 0)
                    return nil
                }
                guard offset < input.count else { return .needMoreBytes }
                messageHeaderBits = messageHeaderBits << 8 | UInt32(input[offset])
                offset += 1
                remaining -= 1
                guard collected + 1 == TLSWire.handshakeHeaderLength else {
                    message = .header(collected: collected + 1)
                    continue
                }
                let type = UInt8(truncatingIfNeeded: messageHeaderBits >> 24)
                let length = Int(messageHeaderBits & 0xFF_FFFF)
                messageHeaderBits = 0
                message = .body(type: type, length: length, wanted: min(length, maxBodyBytes))
                return .messageHeader(type: type, length: length)
            case .body(let type, let length, let wanted):
                if buffer.count == wanted {
                    message = .handedOut(truncated: wanted < length)
                    return .messageBody(type: type, length: length, body: .buffered)
                }
                guard remaining > 0 else {
                    phase = .recordHeader(collected: 0)
                    return nil
                }
                let available = min(input.count - offset, remaining)
                guard available > 0 else { return .needMoreBytes }
                if buffer.isEmpty, available >= wanted {
                    // The whole body is here, inside one record: hand it out in place.
                    let range = offset..<(offset + wanted)
                    offset += wanted
                    remaining -= wanted
                    message = .handedOut(truncated: wanted < length)
                    return .messageBody(type: type, length: length, body: .input(range))
                }
                if buffer.isEmpty { buffer.reserveCapacity(wanted) }
                let take = min(available, wanted - buffer.count)
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset..<(offset + take)])
                    .assumingMemoryBound(to: UInt8.self))
                offset += take
                remaining -= take
            }
        }
    }
}
