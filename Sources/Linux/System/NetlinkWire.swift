/// What every netlink message shares (netlink(7), linux/netlink.h): the 16-byte header, its
/// NLMSG_ERROR answer, 4-byte alignment, and host byte order. The messages built on it
/// (`LinkStatisticsMessage`, `SocketDiagMessage`) read and write through here.
///
///     nlmsghdr = len u32, type u16, flags u16, seq u32, pid u32
///     error    = nlmsghdr(type = NLMSG_ERROR) error s32 (−errno, 0 an acknowledgment) nlmsghdr(the request's)
enum NetlinkWire {
    static let headerLength = 16
    static let errorType: UInt16 = 2         // NLMSG_ERROR
    static let requestFlag: UInt16 = 1       // NLM_F_REQUEST

    /// A message's header: its length, type and sequence.
    struct Header: Equatable {
        let length: Int
        let type: UInt16
        let sequence: UInt32
    }

    /// The header of the answer to request `sequence`, its length checked against the bytes; nil
    /// for a message that answers another request (a late answer to one given up on), which the
    /// caller skips. An NLMSG_ERROR is thrown as its errno, in the caller's own failure.
    static func answerHeader<Failure: NetlinkAnswerFailure>(of bytes: [UInt8], sequence: UInt32, failing _: Failure.Type) throws(Failure) -> Header? {
        guard bytes.count >= headerLength else { throw .malformed("\(bytes.count) bytes, shorter than a header") }
        let length = Int(load(UInt32.self, bytes, 0))
        guard length >= headerLength, length <= bytes.count else { throw .malformed("a length of \(length) in \(bytes.count) bytes") }
        guard load(UInt32.self, bytes, 8) == sequence else { return nil }
        let type = load(UInt16.self, bytes, 4)
        if type == errorType {
            guard length >= headerLength + 4 else { throw .malformed("an error message without its code") }
            let code = Int32(bitPattern: load(UInt32.self, bytes, headerLength))
            throw .kernel(errno: code == 0 ? 0 : -code)
        }
        return Header(length: length, type: type, sequence: sequence)
    }

    /// Appends a request's header; the pid is 0, the kernel.
    static func appendHeader(length: Int, type: UInt16, flags: UInt16, sequence: UInt32, to bytes: inout [UInt8]) {
        append(UInt32(length), to: &bytes)
        append(type, to: &bytes)
        append(flags, to: &bytes)
        append(sequence, to: &bytes)
        append(UInt32(0), to: &bytes)
    }

    static func aligned(_ length: Int) -> Int { (length + 3) & ~3 }

    static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }

    /// `Value` in host order at `offset`; the caller has checked the bounds.
    static func load<Value: FixedWidthInteger>(_: Value.Type, _ bytes: [UInt8], _ offset: Int) -> Value {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Value.self) }
    }
}

/// A netlink message's failures: the kernel's errno, or an answer that cannot be read.
protocol NetlinkAnswerFailure: Error {
    static func kernel(errno: Int32) -> Self
    static func malformed(_ reason: String) -> Self
}
