import Foundation

/// Bytes held in the order they came, as the chunks they came in: appending keeps the chunk
/// (no copy), dropping from the front releases whole chunks (no compaction), and a range inside
/// one chunk is handed out as a slice of it (no copy). Only a range that spans chunks is copied.
///
/// The relay keeps the server's bytes here until the device acknowledges them; with a socket
/// read per chunk and a segment per read, nearly every segment is a slice.
struct ByteQueue: Sendable {
    private var chunks: [Data] = []
    /// Index of the first live chunk: the front is released by moving it, and the array is
    /// compacted only once the dead prefix outweighs the live part.
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ data: Data) {
        guard !data.isEmpty else { return }
        chunks.append(data)
        count += data.count
    }

    /// Drops the first `byteCount` bytes (at most `count`).
    mutating func removeFirst(_ byteCount: Int) {
        var remaining = min(byteCount, count)
        count -= remaining
        while remaining > 0 {
            let first = chunks[head].count
            if remaining < first {
                chunks[head] = chunks[head].dropFirst(remaining)
                break
            }
            chunks[head] = Data()
            head += 1
            remaining -= first
        }
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 16 && head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
    }

    /// `length` bytes starting `offset` bytes in; the range must lie inside the queue.
    func bytes(at offset: Int, count length: Int) -> Data {
        precondition(offset >= 0 && length >= 0 && offset + length <= count, "range outside the queue")
        guard length > 0 else { return Data() }
        var index = head
        var skip = offset
        while skip >= chunks[index].count {
            skip -= chunks[index].count
            index += 1
        }
        let chunk = chunks[index]
        let start = chunk.startIndex + skip
        if skip + length <= chunk.count { return chunk[start..<(start + length)] }
        var joined = Data(capacity: length)
        joined.append(chunk[start...])
        var missing = length - (chunk.count - skip)
        while missing > 0 {
            index += 1
            let next = chunks[index]
            let take = min(missing, next.count)
            joined.append(next[next.startIndex..<(next.startIndex + take)])
            missing -= take
        }
        return joined
    }
}
