import Foundation

/// A JSON document as Python's `json` reads it — an outside parser, so a document the product
/// prints is checked by something other than the code that wrote it.
public enum PythonJSON {
    /// The value at `path` (keys and list indexes separated by dots; "" for the whole document),
    /// re-encoded by `json.dumps` with sorted keys: `"4"`, `"true"`, `"\"live\""`, `"[1, 2]"`.
    /// Throws when Python cannot parse the document or the path is not in it.
    public static func value(_ document: String, _ path: String) throws -> String {
        let script = """
            import json, sys
            value = json.loads(open(sys.argv[1]).read())
            for part in [p for p in sys.argv[2].split('.') if p]:
                value = value[int(part)] if isinstance(value, list) else value[part]
            print(json.dumps(value, sort_keys=True))
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("document.json")
        try Data(document.utf8).write(to: input)
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, input.path, path])
        guard result.status == 0 else { throw Refusal(message: result.err) }
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public struct Refusal: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "python's json refused: \(message)" }
    }
}
