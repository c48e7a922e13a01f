import Foundation

/// A Python script run as an outside oracle (the python3 on PATH, which scripts/test installs the
/// PyPI packages into): what it printed, or a failure with what it said on standard error.
package enum PythonOracle {
    package static func output(_ script: String, _ arguments: [String] = []) throws -> String {
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments)
        guard result.status == 0 else { throw Failure(message: result.err) }
        return result.out
    }

    /// What the script printed, parsed as JSON.
    package static func json(_ script: String, _ arguments: [String] = []) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try output(script, arguments).utf8))
    }

    package struct Failure: Error, CustomStringConvertible {
        package let message: String
        package var description: String { "the Python oracle failed: \(message)" }
    }
}
