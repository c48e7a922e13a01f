import Foundation

/// The package's executables as built beside the test runner (`.build/<configuration>/NAME`),
/// run as a person would run them.
package enum BuiltProduct {
    package static func url(_ name: String) throws -> URL {
        let runner = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let candidate = URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidate.path])
        }
        return candidate
    }

    /// Runs `executable` with `arguments` and collects its exit status and both outputs.
    package static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes concurrently with the child, so neither fills and blocks it.
        nonisolated(unsafe) var errData = Data()
        let errReader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        errReader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errReader.isFinished { usleep(1_000) }
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}
