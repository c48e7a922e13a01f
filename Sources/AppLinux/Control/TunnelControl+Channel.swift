import App

extension TunnelControl {
    /// The questions' seam to the tunnel, over the data directory's control socket.
    package static let channel = TunnelControl { directory, command throws(TunnelControl.Failure) in
        do throws(TunnelControlChannel.Failure) {
            return try TunnelControlChannel(dataDirectory: directory).send(command)
        } catch {
            throw error.isNotRunning ? .notRunning : .failed(error.description)
        }
    }
}
