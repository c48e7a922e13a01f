import Foundation
import Shared

/// One input: the first byte picks how much of the datagram a capture claims was cut (0 = none),
/// the rest is the datagram. The parser must answer with a packet or a typed error, never trap,
/// and every range it returns must lie inside the bytes it was given. A TCP or UDP packet it reads
/// is emitted again by `PacketEmitter` (and so `InternetChecksum`) from what it read, and the
/// emitted datagram must parse back to the same fields: the emitter's writes into its buffer run
/// under AddressSanitizer on every input too.
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
        reemit(packet, from: datagram)
    } catch {
        _ = error.kind
    }
    return 0
}

/// Emits `packet` again from its parsed fields and checks the copy reads the same.
private func reemit(_ packet: ParsedPacket, from datagram: UnsafeRawBufferPointer) {
    let emitted: Data
    if let tcp = packet.tcp {
        let payload = Data(datagram[tcp.payloadRange])
        guard let made = try? PacketEmitter.tcp(source: packet.source, destination: packet.destination, sequence: tcp.sequence,
                                                acknowledgment: tcp.acknowledgment, flags: tcp.flags, windowSize: tcp.windowSize,
                                                payload: payload) else { return }
        emitted = made
    } else if let udp = packet.udp {
        guard let made = try? PacketEmitter.udp(source: packet.source, destination: packet.destination,
                                                payload: Data(datagram[udp.payloadRange])) else { return }
        emitted = made
    } else {
        return
    }
    let again = emitted.withUnsafeBytes { try? PacketParser.parse($0) }
    precondition(again?.source == packet.source && again?.destination == packet.destination, "the emitted datagram's ends differ")
    precondition(again?.tcp?.sequence == packet.tcp?.sequence && again?.tcp?.windowSize == packet.tcp?.windowSize,
                 "the emitted segment reads differently")
}
