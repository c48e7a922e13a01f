#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Reads and writes `AppSettings` as one JSON blob. On Linux that is `settings.json` in the data
/// directory, replaced atomically; tests inject the two closures instead.
///
/// A read never writes: a file that does not decode stays exactly as it is until the person saves
/// over it, because it still holds their choices and may be repaired by hand.
package struct SettingsStore: Sendable {
    /// Where the settings live, as errors name it: the file's path, or what an injected store is called.
    package let location: String
    private let reading: @Sendable () throws -> Data?
    private let writing: @Sendable (Data) throws -> Void

    /// The seam. `reading` returns nil when nothing is stored, and throws when the store cannot be
    /// reached; a `SettingsError` thrown by either closure passes through unchanged.
    package init(location: String = "the settings store",
                reading: @escaping @Sendable () throws -> Data?,
                writing: @escaping @Sendable (Data) throws -> Void) {
        self.location = location
        self.reading = reading
        self.writing = writing
    }

    /// The settings file of a data directory (`DataDirectoryLayout.settings(in:)`).
    package init(dataDirectory: URL) {
        let file = DataDirectoryLayout.settings(in: dataDirectory)
        self.init(location: file.path,
                  reading: { try Self.read(file) },
                  writing: { try Self.write($0, to: file) })
    }

    /// The stored settings; `.default` when nothing is stored (a fresh install). Missing fields
    /// take their factory values (`SettingsDecoding`).
    /// Throws `.corruptData` when the blob is not a JSON object of known settings with values of
    /// the right type, `.storeUnavailable` when it cannot be read.
    package func load() throws(SettingsError) -> AppSettings {
        let stored: Data?
        do {
            stored = try reading()
        } catch {
            throw classify(error)
        }
        guard let stored else { return .default }
        do {
            _ = try JSONText.parse(stored)
            return try JSONDecoder().decode(AppSettings.self, from: stored)
        } catch {
            throw .corruptData(path: location, reason: JSONText.reason(error))
        }
    }

    /// What a tunnel session runs with: the stored settings, or the factory ones when they cannot
    /// be read — a corrupt preferences file must not cost the person their tunnel — together with
    /// the problem, so it is reported rather than swallowed.
    package func loadForSession() -> SettingsReading {
        do {
            return SettingsReading(settings: try load(), problem: nil)
        } catch {
            return SettingsReading(settings: .default, problem: error)
        }
    }

    /// Replaces the whole blob with `encode(settings)`; callers save only over settings they
    /// loaded, or over a file they set aside first (`settings set --force`). Throws
    /// `.storeUnavailable` when it cannot be written.
    package func save(_ settings: AppSettings) throws(SettingsError) {
        do {
            try writing(Self.encode(settings))
        } catch {
            throw classify(error)
        }
    }

    /// The stored form: pretty-printed with sorted keys and a final newline, since a person may read it.
    package static func encode(_ settings: AppSettings) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(settings) + Data("\n".utf8)
        } catch {
            // JSONEncoder fails only on non-finite floating-point values, and settings hold none.
            preconditionFailure("settings could not be encoded: \(error)")
        }
    }

    private func classify(_ error: any Error) -> SettingsError {
        (error as? SettingsError) ?? .storeUnavailable(path: location, reason: "\(error)")
    }

    private static func write(_ data: Data, to file: URL) throws(SettingsError) {
        // The rename would replace a link, not follow it; refusing says what was found instead of
        // silently dropping whatever the person linked there.
        try refuseUntrusted(file, access: .write)
        do {
            try AtomicFile.replace(file, with: data)
        } catch {
            throw .storeUnavailable(path: file.path, reason: error.description)
        }
    }

    /// Refuses a data directory others control (`DataDirectoryTrust`) and a link at the file.
    private static func refuseUntrusted(_ file: URL, access: DataDirectoryTrust.Access) throws(SettingsError) {
        do {
            try DataDirectory.verify(file.deletingLastPathComponent(), access: access)
        } catch {
            let reason = if case let .system(code) = error.problem { SystemError.text(code) } else { error.description }
            throw .storeUnavailable(path: file.path, reason: reason)
        }
        if PathStatus.of(file.path)?.kind == .symbolicLink {
            throw .storeUnavailable(path: file.path, reason: SystemError.symbolicLinkRefusal)
        }
    }

    /// The file's bytes, or nil when there is none (nor, perhaps, a data directory yet).
    private static func read(_ file: URL) throws(SettingsError) -> Data? {
        try refuseUntrusted(file, access: .read)
        // O_NONBLOCK: a FIFO at this path must not hang the reader; it is refused below.
        // O_NOFOLLOW: a link planted here is refused, never read through.
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .storeUnavailable(path: file.path, reason: SystemError.text(openingWithoutFollowing: errno))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .storeUnavailable(path: file.path, reason: SystemError.text(errno))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .storeUnavailable(path: file.path, reason: "not a regular file")
        }
        var contents = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                throw .storeUnavailable(path: file.path, reason: SystemError.text(errno))
            }
            contents.append(contentsOf: chunk[..<count])
        }
    }
}

/// The settings a tunnel session uses, and why they are the factory ones when they are.
package struct SettingsReading: Sendable, Equatable {
    package let settings: AppSettings
    /// Nil when the settings were read (or nothing was stored); otherwise what to report.
    package let problem: SettingsError?

    package init(settings: AppSettings, problem: SettingsError?) {
        self.settings = settings
        self.problem = problem
    }
}
