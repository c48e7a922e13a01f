import Foundation
import TestSupport

/// Running the built `tunnelvision` over a data directory, and reading its JSON with Python's
/// `json` (the parser a script would use) before Foundation's.
enum HistoryCommandSupport {
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    /// `text` as Python's `json.loads` reads it, handed back re-encoded to Foundation.
    static func pythonJSON(_ text: String) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import json, sys; print(json.dumps(json.loads(sys.stdin.read())))"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.propertyListReadCorrupt) }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The shell words of a command line the footer printed (single quotes only, as it writes them).
    static func words(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, started = false
        for character in line {
            if character == "'" { quoted.toggle(); started = true; continue }
            if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
                continue
            }
            current.append(character)
            started = true
        }
        if started { words.append(current) }
        return words
    }
}
