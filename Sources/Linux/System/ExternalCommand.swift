import Foundation

/// Runs another program to completion and collects what it said: how the shell drives iproute2
/// (DESIGN.md allows `ip` in place of raw netlink). Standard input is /dev/null.
public enum ExternalCommand {
    /// Where system programs live, searched after `$PATH` (root's `ip` is in /usr/sbin, which a
    /// sudo'd environment may not list).
    static let systemDirectories = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

    @discardableResult
    public static func run(_ arguments: [String]) throws(CommandError) -> CommandOutput {
        guard let program = arguments.first else { throw .notFound("") }
        guard let path = locate(program) else { throw .notFound(program) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .launchFailed(program, "\(error)")
        }
        // Drain both pipes while the child runs, so neither fills and blocks it.
        let errorReader = PipeReader(errors)
        let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let result = CommandOutput(status: process.terminationStatus,
                                   standardOutput: String(decoding: standardOutput, as: UTF8.self),
                                   standardError: String(decoding: errorReader.finish(), as: UTF8.self))
        guard result.status == 0 else {
            throw .failed(command: arguments.joined(separator: " "), status: result.status,
                          standardError: result.standardError.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return result
    }

    /// The program's path: as given when it contains a slash, else found on `$PATH` or in the
    /// system directories.
    public static func locate(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        return (path + systemDirectories)
            .map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

public struct CommandOutput: Sendable, Equatable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
}

/// A program that could not be run or said no.
public enum CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case launchFailed(String, String)
    case failed(command: String, status: Int32, standardError: String)

    public var description: String {
        switch self {
        case .notFound(let program): "\(program) is not installed (not on PATH or in /usr/sbin)"
        case .launchFailed(let program, let reason): "cannot run \(program): \(reason)"
        case .failed(let command, let status, let standardError):
            "\(command) failed (exit status \(status))" + (standardError.isEmpty ? "" : ": \(standardError)")
        }
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func finish() -> Data {
        done.wait()
        return data
    }
}
