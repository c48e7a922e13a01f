import Foundation

/// A fresh directory under the system temp folder, removed when the test is done with it.
package final class TemporaryDirectory: @unchecked Sendable {
    package let url: URL

    package init(_ label: String = "tunnelvision-test") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
