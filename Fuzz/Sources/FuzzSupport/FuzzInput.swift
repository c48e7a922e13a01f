import Foundation

/// The bytes libFuzzer hands a harness, read front to back: a few control bytes first (a chunking,
/// a limit), then the body the parser sees. A missing control byte reads as 0, so every input,
/// the empty one too, means something.
public struct FuzzInput {
    public let bytes: UnsafeRawBufferPointer
    private var cursor = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size)
    }

    /// The next control byte, 0 past the end.
    public mutating func byte() -> UInt8 {
        guard cursor < bytes.count else { return 0 }
        defer { cursor += 1 }
        return bytes[cursor]
    }

    /// What is left after the control bytes, borrowed from libFuzzer's buffer.
    public var rest: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[min(cursor, bytes.count)...])
    }

    /// `rest` as its own `Data`.
    public var restData: Data { Data(rest) }
}

/// Checks a parser's invariant: a violation is a bug, and trapping is how libFuzzer sees one (and
/// keeps the input in Fuzz/crashes/). Unlike `precondition`, it also holds in `-O` builds.
public func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    guard condition() else { fatalError("invariant broken: \(message())", file: file, line: line) }
}

/// `Data` holding `bytes` behind `offset` bytes that are not its own, so its indices start there:
/// a parser that takes a `Data` must count from `startIndex`, never from 0.
public func sliceAtOffset(_ bytes: UnsafeRawBufferPointer, offset: Int = 3) -> Data {
    var storage = Data(repeating: 0xEE, count: offset)
    storage.append(contentsOf: bytes)
    return storage[offset...]
}
