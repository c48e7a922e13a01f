import Foundation

/// The records waiting for the device's window, kept as the pieces they came in: an append
/// stores the piece, a take hands out the front and leaves the rest where it is. One `Data`
/// re-made from what stayed at every flush copied the whole backlog each time the window moved —
/// the inspected path's largest cost after the cipher, measured with perf.
struct PendingBytes {
    private var pieces: [Data] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: Data) {
        guard !bytes.isEmpty else { return }
        pieces.append(bytes)
        count += bytes.count
    }

    /// At most `limit` bytes from the front, in order, indexed from zero.
    mutating func take(upTo limit: Int) -> Data {
        var taken = Data()
        var room = limit
        while room > 0, let front = pieces.first {
            if front.count <= room {
                pieces.removeFirst()
                room -= front.count
                taken.append(adopting: front)
            } else {
                taken.append(front.prefix(room))
                pieces[0] = front.dropFirst(room)   // a slice of the same storage: nothing copied
                room = 0
            }
        }
        count -= limit - room
        return taken.startIndex == 0 ? taken : Data(taken)
    }
}
