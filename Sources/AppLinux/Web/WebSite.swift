#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation

/// The app's own files, served from one folder: `/` is index.html, other files by name
/// (`WebSitePath` decides which names exist). No listing, no `..`, and no symlink followed: each
/// segment is opened with O_NOFOLLOW below the folder's own descriptor, and only a regular file
/// is served — a link planted in the folder cannot point the server at another file.
package struct WebSite: WebResponder {
    package let directory: String

    /// Refuses a folder with no index.html: a server with no page to show would only confuse.
    package init(directory: String) throws(WebServerError) {
        var status = stat()
        guard stat(directory + "/" + WebSitePath.index, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .siteMissing(directory)
        }
        self.directory = directory
    }

    /// Where the build puts the files: `TunnelVision_AppLinux.resources/Site` beside the binary,
    /// found by hand rather than through `Bundle.module`, which stops the process when it is missing.
    static var bundledDirectory: String {
        Bundle.main.bundleURL.appendingPathComponent("TunnelVision_AppLinux.resources/Site").path
    }

    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var refused = WebRefusalResponse.make(.methodNotAllowed, "the app's files are only read (GET)", form: .page)
            refused.headers.set("Allow", "GET, HEAD")
            return refused
        }
        guard let path = WebSitePath(requestPath: request.path), let type = path.contentType,
              let bytes = read(path) else {
            return WebRefusalResponse.make(.notFound, "there is no page at \(request.path); the app starts at /", form: .page)
        }
        return HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", type)]), body: .bytes(bytes))
    }

    /// The file's bytes, or nil when any segment is missing, a link, or not what it should be.
    func read(_ path: WebSitePath) -> [UInt8]? {
        var folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        for segment in path.segments.dropLast() {
            let next = openat(folder, segment, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            Glibc.close(folder)
            guard next >= 0 else { return nil }
            folder = next
        }
        let file = openat(folder, path.segments.last!, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        Glibc.close(folder)
        guard file >= 0 else { return nil }
        defer { Glibc.close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }
}
