/// Whether a tunnel is recording into the data directory, as its control socket answered. What
/// may be deleted hangs on it: when nobody can tell, the safe answer is "it may be".
package enum CapturesTunnelPresence: Sendable, Equatable {
    case live
    /// No tunnel serves the data directory's control socket.
    case absent
    /// The socket could not be asked (why).
    case unknown(String)

    /// Whether the newest capture and the open sessions must be treated as being written:
    /// true unless no tunnel is there for certain.
    package var mayBeRecording: Bool { self != .absent }

    /// What a listing says about it, when it needs saying.
    package var notice: String? {
        guard case .unknown(let reason) = self else { return nil }
        return "cannot tell whether a tunnel is recording (\(reason)); the newest capture is treated as being recorded"
    }
}
