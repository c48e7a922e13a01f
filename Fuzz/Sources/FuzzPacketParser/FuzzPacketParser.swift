import Shared

/// One input: the first byte picks how much of the datagram a capture claims was cut (0 = none),
/// the rest is the datagram. The parser must answer with a packet or a typed error, never trap,
/// and every range it returns must lie inside the bytes it was given.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPacketParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let datagram = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let cut = Int(data[0])
    do {
        let packet = try PacketParser.parse(datagram, originalLength: cut == 0 ? nil : datagram.count + cut)
        precondition(packet.ip.payloadRange.upperBound <= datagram.count)
        precondition((packet.tcp?.payloadRange.upperBound ?? 0) <= datagram.count)
        precondition((packet.udp?.payloadRange.upperBound ?? 0) <= datagram.count)
        precondition(packet.ip.payloadRange.lowerBound <= packet.ip.payloadRange.upperBound)
    } catch {
        _ = error.kind
    }
    return 0
}
