#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import Shared
import Synchronization

/// The page a browser is opened on (`BrowserLaunchPage`), as a file: `xdg-open PATH` carries
/// only the path, the file carries the key. Made 0600 with O_CREAT | O_EXCL | O_NOFOLLOW — a name
/// that exists already, or a link, is never written through — in `$XDG_RUNTIME_DIR` or a fresh
/// 0700 directory (`BrowserLaunchPage.place`), for a key of its own; removed once that key is
/// spent (used by the browser, expired, or the server stopped).
package final class BrowserLaunchFile: Sendable {
    package let path: String
    /// The directory made for the file, removed with it; nil in the runtime directory.
    private let madeDirectory: String?
    private let removed = Mutex(false)

    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    private init(path: String, madeDirectory: String?) {
        self.path = path
        self.madeDirectory = madeDirectory
    }

    /// The file for a new key of `server`.
    package static func make(for server: WebServer, environment: [String: String]) throws(Failure) -> BrowserLaunchFile {
        let madeDirectory: String?
        let directory: String
        switch BrowserLaunchPage.place(environment: environment, status: PathStatus.of, user: geteuid()) {
        case .runtimeDirectory(let runtime):
            directory = runtime
            madeDirectory = nil
        case .freshDirectory:
            var template = Array((FileManager.default.temporaryDirectory.path + "/tunnelvision-open.XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                throw Failure(description: "cannot make a private directory for the browser's page: \(SystemError.text(errno))")
            }
            directory = String(cString: made)
            madeDirectory = directory
        }
        var random = SystemRandomNumberGenerator()
        let path = directory + "/" + BrowserLaunchPage.fileName(using: &random)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let failure = errno
            if let madeDirectory { rmdir(madeDirectory) }
            throw Failure(description: "cannot make \(path): \(SystemError.text(failure))")
        }
        let file = BrowserLaunchFile(path: path, madeDirectory: madeDirectory)
        // The key exists only once the file does, so its spending always finds the file to remove.
        guard let key = server.mintAddress(whenSpent: { file.remove() }) else {
            close(descriptor)
            file.remove()
            throw Failure(description: "the web app has stopped")
        }
        let page = Array(BrowserLaunchPage.html(url: key.url).utf8)
        // open(2) filters the mode through the umask, which may only narrow 0600; fchmod makes it exact.
        var failure: Int32? = fchmod(descriptor, 0o600) == 0 ? nil : errno
        if failure == nil { failure = page.withUnsafeBytes { FileDescriptor.writeAll(descriptor, $0) } }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if let failure {
            file.remove()
            throw Failure(description: "cannot write \(path): \(SystemError.text(failure))")
        }
        return file
    }

    /// Removes the file (and the directory made for it); once, from whichever thread comes first.
    package func remove() {
        let first = removed.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        unlink(path)
        if let madeDirectory { rmdir(madeDirectory) }
    }
}
