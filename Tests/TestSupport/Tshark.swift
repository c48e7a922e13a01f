import Foundation

/// Runs tshark over a capture and returns one dictionary of fields per frame. The oracle for
/// everything the parser and the writer claim: an outside reader of the same bytes.
package enum Tshark {
    package struct Missing: Error, CustomStringConvertible {
        package var description: String { "tshark is not installed: scripts/test installs it (apt-get install tshark)" }
    }

    package static func executable() throws -> URL {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("tshark")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Missing()
    }

    /// Every occurrence of each field, in order (tshark's `-E occurrence=a`, split on the aggregator).
    package static func fields(_ names: [String], of capture: URL, options: [String] = []) throws -> [[String: [String]]] {
        let data = try output(["-r", capture.path, "-n"] + options + ["-T", "fields", "-E", "separator=\t",
                                "-E", "occurrence=a", "-E", "aggregator=|"] + names.flatMap { ["-e", $0] })
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map { line in
            let values = line.split(separator: "\t", omittingEmptySubsequences: false)
            var frame: [String: [String]] = [:]
            for (index, name) in names.enumerated() where index < values.count && !values[index].isEmpty {
                frame[name] = values[index].split(separator: "|").map(String.init)
            }
            return frame
        }
    }

    /// Each frame's bytes as tshark read them off the file (`-T json -x`: the frame's `frame_raw`).
    package static func frameBytes(of capture: URL) throws -> [[UInt8]] {
        let data = try output(["-r", capture.path, "-n", "-T", "json", "-x"])
        guard let packets = try JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw NSError(domain: "tshark", code: 0, userInfo: [NSLocalizedDescriptionKey: "tshark's JSON is not a list of packets"])
        }
        return packets.map { packet in
            let layers = TsharkJSON.object(TsharkJSON.object((packet as? [String: Any])?["_source"])?["layers"])
            return (TsharkJSON.list(layers?["frame_raw"]).first as? String).map(HexText.bytes) ?? []
        }
    }

    /// What tshark printed for `arguments`; throws when it did not exit 0.
    private static func output(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "tshark", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "tshark exited \(process.terminationStatus)"])
        }
        return data
    }
}
