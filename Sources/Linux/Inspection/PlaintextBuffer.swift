#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What `SSL_read` decrypts, read straight into the storage the session's step hands out:
/// allocated once per call (never zero-filled), grown only when a read finds it full, and given
/// to `Data` without a copy — where a fixed scratch array was zero-filled per call and each read
/// copied again into a growing `Data`.
struct PlaintextBuffer {
    private var storage: UnsafeMutableRawPointer?
    private var capacity: Int
    /// Bytes read so far, from the start of the storage.
    var count = 0

    /// Room for `capacity` bytes; a call's plaintext is at most its records' length, plus the
    /// rest of one record OpenSSL may hold from an earlier call.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The free space after `count`: made at the first call, doubled when full; nil when memory
    /// ran out.
    mutating func room() -> UnsafeMutableRawBufferPointer? {
        if storage == nil {
            storage = malloc(capacity)
        } else if count == capacity {
            guard let grown = realloc(storage, capacity * 2) else { return nil }
            storage = grown
            capacity *= 2
        }
        guard let storage else { return nil }
        return UnsafeMutableRawBufferPointer(start: storage + count, count: capacity - count)
    }

    /// What was read, as `Data` owning the storage (empty, and the storage freed, when nothing
    /// was); the buffer is empty afterwards.
    mutating func take() -> Data {
        defer {
            storage = nil
            count = 0
        }
        guard let storage else { return Data() }
        guard count > 0 else {
            free(storage)
            return Data()
        }
        // A short read gives back what it did not use.
        let kept = count < capacity / 2 ? (realloc(storage, count) ?? storage) : storage
        return Data(bytesNoCopy: kept, count: count, deallocator: .free)
    }
}
