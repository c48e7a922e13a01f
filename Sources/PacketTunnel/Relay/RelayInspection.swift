import Foundation
import Shared

/// What the relay needs to inspect TLS (given only when the person asked for it, `run --inspect`):
/// the factory of the two legs, the live switch, and where the plaintext goes when it is kept.
/// The relay owns it and reads it on the loop thread, like everything else it holds.
package final class RelayInspection {
    package let factory: any TLSSessionFactory
    /// The `tls-inspection` switch as the tunnel knows it now: off, new connections pass through
    /// untouched (an attempt already under way finishes).
    package var isEnabled: Bool
    /// Re-read for every attempt: a CA removed mid-run stops the next termination.
    package var caReady: () -> Bool
    /// Where decrypted content goes; nil keeps nothing (ADR 0007: keeping is its own switch, and
    /// the switch is applied by not handing the bytes over).
    package var keepPlaintext: ((FlowKey, DecryptedPiece) -> Void)?
    /// The hosts found not inspectable this run, with why.
    package internal(set) var remembered: UninspectableHosts

    package init(factory: any TLSSessionFactory, isEnabled: Bool = true, caReady: @escaping () -> Bool = { true },
                 rememberedCapacity: Int = 4096) {
        self.factory = factory
        self.isEnabled = isEnabled
        self.caReady = caReady
        remembered = UninspectableHosts(capacity: rememberedCapacity)
    }
}

/// Where a TCP flow stands with inspection.
enum FlowInspectionPhase {
    /// The device's first bytes are held, unsent, until its ClientHello says whom it calls.
    case candidate(held: Data, scanner: ClientHelloScanner)
    case terminating(TerminationLeg)
}

/// The relay's side of a termination: the transport bookkeeping the pairing knows nothing of.
struct TerminationLeg {
    let termination: TLSTerminationConnection
    /// Records for the device beyond what its window takes now; flushed as it acknowledges.
    var pendingToDevice = ByteQueue()
    /// Our FIN to the device, once `pendingToDevice` is out.
    var closeDeviceWhenFlushed = false
    /// Device bytes the termination consumed that the flow still counts as unsent: reported as
    /// drained when the server's socket has taken what they became, so the device's window
    /// tracks the real server's pace.
    var owedDrain = 0
    /// Bytes given to the server's socket and not yet taken by it.
    var upstreamUnsent = 0
    /// The device's FIN arrived (to repeat after a rollback).
    var deviceFinished = false
    /// Anything of ours reached the device.
    var spokeToDevice = false
    /// The flow asked to resume the server's reads while records still waited for the device.
    var resumeWanted = false

    /// Below this much unsent toward the server, the device's bytes count as drained.
    static let drainThreshold = 65_536
}
