import Foundation
import FuzzSupport
import Shared

/// One input: a control byte (bit 0: read as a response, else as a command), then one message off
/// the control socket. The codec answers a message or `.malformed`, never traps; and a message it
/// read, encoded again, has no newline byte (the socket frames one message per line), decodes to
/// the same message, and encodes to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlChannel(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let asResponse = input.byte() & 1 != 0
    let message = input.restData
    if asResponse {
        guard let response = try? ControlChannel.decodeResponse(message) else { return 0 }
        let encoded = ControlChannel.encode(response)
        invariant(!encoded.contains(UInt8(ascii: "\n")), "a newline inside an encoded response")
        let decoded = Result { () throws(ControlMessageError) in try ControlChannel.decodeResponse(encoded) }
        invariant(decoded == .success(response), "\(response) encoded and decoded is \(decoded)")
        invariant(ControlChannel.encode(response) == encoded, "encoding is not stable")
    } else {
        guard let command = try? ControlChannel.decodeCommand(message) else { return 0 }
        let encoded = ControlChannel.encode(command)
        invariant(!encoded.contains(UInt8(ascii: "\n")), "a newline inside an encoded command")
        let decoded = Result { () throws(ControlMessageError) in try ControlChannel.decodeCommand(encoded) }
        invariant(decoded == .success(command), "\(command) encoded and decoded is \(decoded)")
    }
    return 0
}
