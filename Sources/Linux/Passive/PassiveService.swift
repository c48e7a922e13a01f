#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// `tunnelvision up --interface IF --foreground`: an interface (or `any`) watched as a service
/// (DESIGN.md § What is monitored, passive). Nothing of the network is changed — no device, no
/// route, no rule — so there is nothing to clean up and nothing to fail open: the service only
/// listens, and records what it hears as `run` records a command's traffic. Nothing is inspected.
package struct PassiveService {
    package enum Failure: Error, CustomStringConvertible {
        case ring(PacketRing.Failure)
        case dataDirectory(DirectoryError)
        case session(TunnelSessionError)
        /// Monitoring stopped by itself (the interface went away).
        case stopped(String)

        package var description: String {
            switch self {
            case .ring(let failure): failure.description
            case .dataDirectory(let error): "\(error)"
            case .session(let error): "\(error)"
            case .stopped(let why): why
            }
        }
    }

    let interface: String
    let dataDirectory: URL
    /// `up --no-programs`: no flow's program is asked.
    let namesPrograms: Bool

    package init(interface: String, dataDirectory: URL, namesPrograms: Bool = true) {
        self.interface = interface
        self.dataDirectory = dataDirectory
        self.namesPrograms = namesPrograms
    }

    /// Runs until `stopped` returns; `live` is told once packets are being read. Monitoring that
    /// stops by itself ends the service as a stop would (SIGTERM to itself), saying why.
    package func run(live: @Sendable (ServiceLive) -> Void, until stopped: () async -> Void) async throws(Failure) {
        do { try DataDirectory.prepare(dataDirectory) } catch { throw .dataDirectory(error) }
        let ring: PacketRing
        do { ring = try PacketRing(interface: interface) } catch { throw .ring(error) }
        let target = MonitoringTarget.interface(interface)
        var options = TunnelSession.Options.service(for: target, settings: SettingsStore(dataDirectory: dataDirectory).loadForSession())
        options.namesPrograms = namesPrograms
        let session: PassiveSession
        do {
            session = try await PassiveSession(dataDirectory: dataDirectory, ring: ring, options: options, onFailure: { failure in
                FileDescriptor.writeAll(STDERR_FILENO, text: "tunnelvision: up: \(failure)\n")
                kill(getpid(), SIGTERM)
            })
        } catch { throw .session(error) }
        live(ServiceLive(device: interface, sentence: "watching \(target) (nothing is routed or inspected); "
                         + "the history is in \(dataDirectory.path)"))
        await stopped()
        await session.stop()
        if let failure = session.failure { throw .stopped(failure.description) }
    }
}
