import Foundation
import PacketTunnel
import Shared

/// Why `--inspect` could not be armed before the loop started, by reason: each case keeps its
/// component's typed error, whose own comment says what the person can do.
package enum InspectionSetupFailure: Error, CustomStringConvertible {
    /// The CA's files could not be read, or are not a CA we made.
    case caUnreadable(LocalCAError)
    /// The data directory holds no CA: `tunnelvision ca create` makes one.
    case noCA(dataDirectory: String)
    /// The key log named by `--key-log` cannot be written.
    case keyLog(TLSKeyLogError)
    /// OpenSSL refused to make the two legs' contexts (an upstream CA file it cannot read, say).
    case contexts(TLSSessionFailure)

    package var description: String {
        switch self {
        case .caUnreadable(let error): "\(error)"
        case .noCA(let directory): "there is no local CA in \(directory): make one with 'tunnelvision ca create'"
        case .keyLog(let error): "\(error)"
        case .contexts(let error): "the TLS contexts could not be made: \(error)"
        }
    }
}
