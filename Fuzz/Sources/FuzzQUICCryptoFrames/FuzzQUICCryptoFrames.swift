import Foundation
import FuzzSupport
import Shared

/// One input: two budget bytes, then decrypted Initial payloads, each behind a 2-byte big-endian
/// length (the last may run short). Each payload goes through `QUICFrameReader` and, as one
/// packet, into a `QUICCryptoStream`, which is compared after every packet with a naive model —
/// a byte map where the first write wins — that files the same frames under the same budget:
/// - the contiguous prefix, its bytes, the progress reported and the refusal match the model's;
/// - a refused stream stays refused;
/// - every CRYPTO frame's data is a slice of its payload, and the reader only moves forward and
///   repeats its error once it has thrown.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQUICCryptoFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let sizes = input.byte(), limits = input.byte()
    let budget = QUICCryptoStream.Budget(byteLimit: 64 * (1 + Int(sizes)), packetLimit: 1 + Int(limits & 7),
                                         pieceLimit: 1 + Int(limits >> 3))
    var stream = QUICCryptoStream(budget: budget)
    var model = CryptoStreamModel(budget: budget)
    for payload in packets(input.rest).prefix(16) {
        let before = stream.contiguousLength
        let progress = stream.receive(frames: payload)
        let expected = model.receive(frames: payload)
        invariant(progress == expected, "stream: \(progress); model: \(expected)")
        invariant(stream.refusal == model.refusal, "refusal \(String(describing: stream.refusal)) ≠ \(String(describing: model.refusal))")
        invariant(stream.contiguousLength == model.contiguousLength && stream.contiguousLength >= before,
                  "prefix \(stream.contiguousLength), model \(model.contiguousLength)")
        invariant(stream.bytes(in: 0..<stream.contiguousLength).elementsEqual(model.bytes[0..<model.contiguousLength]),
                  "the prefix's bytes differ from the model's")
        stream.withBytes(in: 0..<Int.max) { invariant($0.count == stream.contiguousLength, "withBytes is not clipped") }
    }
    return 0
}

/// The payloads of the input: 2-byte length, then that many bytes (fewer for the last).
private func packets(_ bytes: UnsafeRawBufferPointer) -> [Data] {
    var result: [Data] = []
    var offset = 0
    while offset + 2 <= bytes.count {
        let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        let end = min(bytes.count, offset + 2 + length)
        // At a non-zero index, so the reader must count from the payload's startIndex.
        result.append(sliceAtOffset(UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)..<end])))
        offset = end
    }
    return result
}

/// The crypto stream as a byte map: what `QUICCryptoStream` must answer, computed the slow way.
private struct CryptoStreamModel {
    let budget: QUICCryptoStream.Budget
    var bytes: [UInt8]
    var filled: [Bool]
    var contiguousLength = 0
    var highest = 0
    var packets = 0
    var refusal: QUICCryptoStream.Refusal?

    init(budget: QUICCryptoStream.Budget) {
        self.budget = budget
        bytes = [UInt8](repeating: 0, count: budget.byteLimit)
        filled = [Bool](repeating: false, count: budget.byteLimit)
    }

    mutating func receive(frames payload: Data) -> QUICCryptoStream.Progress {
        if let refusal { return .refused(refusal) }
        guard packets < budget.packetLimit else { return refuse(.tooManyPackets) }
        packets += 1
        let before = contiguousLength
        var reader = QUICFrameReader(payload: payload)
        var position = reader.position
        while true {
            let frame: QUICFrameReader.CryptoFrame?
            do {
                frame = try reader.next()
            } catch {
                let again = Result { () throws(QUICFrameError) in try reader.next() }
                invariant(again == .failure(error), "the reader threw \(error), then answered \(again)")
                return refuse(.frames(error))
            }
            invariant(reader.position >= position && reader.position <= payload.endIndex, "the reader moved back or out")
            position = reader.position
            guard let frame else { break }
            invariant(frame.data.startIndex >= payload.startIndex && frame.data.endIndex <= reader.position,
                      "a frame's data outside its payload")
            guard frame.offset <= UInt64(budget.byteLimit), frame.data.count <= budget.byteLimit - Int(frame.offset) else {
                return refuse(.tooManyBytes)
            }
            let start = Int(frame.offset)
            for (index, byte) in zip(start..., frame.data) where !filled[index] {
                filled[index] = true
                bytes[index] = byte
            }
            highest = max(highest, start + frame.data.count)
            while contiguousLength < highest, filled[contiguousLength] { contiguousLength += 1 }
            if runsPastPrefix() > budget.pieceLimit { return refuse(.tooFragmented) }
        }
        return contiguousLength > before ? .delivered(before..<contiguousLength) : .nothingNew
    }

    private func runsPastPrefix() -> Int {
        var runs = 0
        var index = contiguousLength
        while index < highest {
            if filled[index], index == contiguousLength || !filled[index - 1] { runs += 1 }
            index += 1
        }
        return runs
    }

    private mutating func refuse(_ reason: QUICCryptoStream.Refusal) -> QUICCryptoStream.Progress {
        refusal = reason
        return .refused(reason)
    }
}
