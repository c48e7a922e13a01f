import Foundation
import PacketTunnel
import Shared

extension TunnelRuntime {
    /// Arms TLS inspection (`run --inspect`; call before `start`): the relay terminates TCP/443
    /// flows through `factory`'s legs while `enabled`, and hands their plaintext to the pipeline
    /// when `keepPlaintext` and the pipeline has somewhere to keep it (ADR 0007).
    func enableInspection(factory: any TLSSessionFactory, enabled: Bool, keepPlaintext: Bool,
                                  caReady: @escaping () -> Bool) {
        let inspection = RelayInspection(factory: factory, isEnabled: enabled, caReady: caReady)
        relay.inspection = inspection
        setKeepingPlaintext(keepPlaintext)
    }

    /// The `tls-inspection` setting changed while the tunnel runs (loop thread): new connections
    /// follow it; one under way finishes as it started.
    func setInspectionEnabled(_ enabled: Bool) -> ControlResponse {
        guard let inspection = relay.inspection else {
            return .failed("this tunnel was started without --inspect: stop it and start it again with 'tunnelvision run --inspect'")
        }
        inspection.isEnabled = enabled
        return .ok
    }

    /// The `plaintext-persistence` setting changed while the tunnel runs (loop thread). Turning it
    /// off stops at once — the bytes are no longer handed over; turning it on needs the session's
    /// writer, made at the start only when keeping was on.
    func setPlaintextPersistence(_ enabled: Bool) -> ControlResponse {
        guard relay.inspection != nil else {
            return .failed("this tunnel was started without --inspect: it decrypts nothing, so it keeps nothing")
        }
        guard !enabled || pipeline.plaintextSink != nil else {
            return .failed("this tunnel was started with keeping decrypted content off: it applies from the next run")
        }
        setKeepingPlaintext(enabled)
        return .ok
    }

    private func setKeepingPlaintext(_ keep: Bool) {
        guard keep, pipeline.plaintextSink != nil else {
            relay.inspection?.keepPlaintext = nil
            return
        }
        relay.inspection?.keepPlaintext = { [unowned self] key, piece in
            self.pipeline.observe(plaintext: piece.bytes, direction: piece.direction, for: key, now: MonotonicAnchor.uptimeNow())
        }
    }
}
