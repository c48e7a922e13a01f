/// Why a datagram could not be built. Both are the caller's bug or an oversize reply: the relay
/// counts it (`emitterFailures`) and drops that reply; nothing is fatal.
package enum PacketEmitError: Error, Sendable, Equatable {
    /// The two endpoints are of different IP families.
    case addressFamilyMismatch(source: IPVersion, destination: IPVersion)
    /// The datagram would exceed what its length fields can express.
    case datagramTooLarge(byteCount: Int, limit: Int)
}
