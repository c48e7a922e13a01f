import Foundation

/// Where a library of the tunnel's files is — the captures (`CaptureLibrary`), decrypted content
/// (`PlaintextLibrary`) — resolved again on every call, since the writer is another process; the
/// resolution is the seam a test uses to make it fail.
package struct LibraryDirectory: Sendable {
    private let resolve: @Sendable () throws -> URL

    package init(_ directory: URL) {
        resolve = { directory }
    }

    package init(resolving: @escaping @Sendable () throws -> URL) {
        resolve = resolving
    }

    /// The directory; else `unavailable` with why it cannot be had, in words (each library's
    /// `containerUnavailable`).
    func url<Failure: Error>(unavailable: (String) -> Failure) throws(Failure) -> URL {
        do { return try resolve() } catch { throw unavailable("\(error)") }
    }
}

/// A library over a `LibraryDirectory`: the ways to say where it is, written once for both.
package protocol DirectoryLibrary {
    init(location: LibraryDirectory)
}

extension DirectoryLibrary {
    package init(directory: URL) {
        self.init(location: LibraryDirectory(directory))
    }

    package init(resolvingDirectory: @escaping @Sendable () throws -> URL) {
        self.init(location: LibraryDirectory(resolving: resolvingDirectory))
    }
}
