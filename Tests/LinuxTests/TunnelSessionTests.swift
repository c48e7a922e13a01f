import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// The session's failures arrive typed, each with what the person can do. Needs root (a TUN
/// device, moved at once into a namespace of our own).
@Suite("A tunnel session that cannot open", .serialized)
struct TunnelSessionTests {
    static let prefix = "tvsess"

    /// Runs `body` with a fresh TUN device moved into a namespace of our own, both removed after.
    static func withDevice(_ body: (TUNDevice) async throws -> Void) async throws {
        NamespaceName.removeLeftovers(prefix: prefix)
        let namespace = try NetworkNamespace.create(NamespaceName.make(prefix: prefix))
        defer { namespace.delete() }
        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: namespace.name)
        try await body(device)
    }

    @Test("a relay namespace that does not exist is a typed start error naming it and how to find one")
    func aMissingRelayNamespaceIsATypedStartError() async throws {
        let data = TemporaryDirectory("session-errors")
        let missing = "\(Self.prefix)-missing-\(getpid())"
        try await Self.withDevice { device in
            do {
                let session = try await TunnelSession(dataDirectory: data.url, device: device, options: .init(),
                                                      relayNamespace: missing)
                await session.stop()
                Issue.record("a session started relaying from \(missing)")
            } catch let error as TunnelSessionError {
                guard case let .start(.namespace(name, code)) = error else { Issue.record("\(error)"); return }
                #expect(name == missing && code == ENOENT)
                #expect(error.description.contains("cannot join network namespace \(missing)"))
                #expect(error.description.contains("ip netns list"))
            }
        }
        // Everything the start opened before the loop failed to start is closed again: the capture,
        // the history (and its WAL), the ring. A service that retries must not collect descriptors.
        #expect(try Self.descriptors(into: data.url) == [])
    }

    /// What this process's open descriptors point to inside `directory`.
    static func descriptors(into directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { entry in
            // A descriptor closed since the listing (another test's) has no link left to read.
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)") else { return nil }
            return target.hasPrefix(directory.path + "/") ? target : nil
        }.sorted()
    }

    @Test("a data directory that is a file is a typed error naming it (the ring's, made first), not a string")
    func aDataDirectoryThatIsAFileIsATypedError() async throws {
        let parent = TemporaryDirectory("session-errors")
        let file = parent.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        try await Self.withDevice { device in
            do {
                let session = try await TunnelSession(dataDirectory: file, device: device, options: .init())
                await session.stop()
                Issue.record("a session opened over a file")
            } catch let error as TunnelSessionError {
                guard case let .ring(.dataDirectoryUnavailable(path, _)) = error else { Issue.record("\(error)"); return }
                #expect(path == file.path)
            }
        }
    }
}
