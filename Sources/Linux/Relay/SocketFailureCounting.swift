import Posix
import Shared

extension ShellStats.Sockets {
    /// Counts a relay socket call that failed under its call, and a connect's under its errno too.
    mutating func count(_ error: SocketError) {
        switch error.operation {
        case .create, .configure: socketFailures += 1
        case .connect:
            connectFailures += 1
            connectFailuresByErrno[SystemError.name(error.errno), default: 0] += 1
        case .send: sendFailures += 1
        case .receive: receiveFailures += 1
        case .shutdown: shutdownFailures += 1
        }
    }

    /// Counts a connect's answer when it is a failure.
    mutating func count(_ result: ConnectResult?) {
        if case .failed(let error) = result { count(error) }
    }
}
