#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux

/// Real programs started inside the lab's namespaces for the end-to-end tests, stopped by pid.
enum LabPrograms {
    /// The interpreter itself, not a wrapper script (pyenv's shim would survive a kill of itself
    /// and leave the server running).
    static let python: String = {
        let output = try? ExternalCommand.run(["python3", "-c", "import sys; print(sys.executable)"])
        return output?.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) ?? "python3"
    }()

    /// Starts `arguments` in `namespace`, output discarded (a child holding the test's output open
    /// would keep `swift test` waiting).
    static func start(_ arguments: [String], in namespace: NetworkNamespace) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        process.arguments = Array(namespace.command(arguments).dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends a started program. SIGKILL, because a child can inherit a blocked SIGTERM from the
    /// test runner's thread and outlive a polite request.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits until something accepts TCP connections at `host`:`port`, asked from `namespace`.
    static func waitForListener(_ host: String, _ port: Int, from namespace: NetworkNamespace) throws {
        let probe = "import socket,time\nfor _ in range(100):\n    try:\n        socket.create_connection(('\(host)', \(port)), 1).close(); break\n    except OSError:\n        time.sleep(0.05)\nelse:\n    raise SystemExit(1)"
        try namespace.run([python, "-c", probe])
    }
}
