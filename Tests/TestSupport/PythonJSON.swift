import Foundation

/// A JSON document as Python's `json` reads it — an outside parser, so a document the product
/// prints is checked by something other than the code that wrote it.
package enum PythonJSON {
    /// The value at `path` (keys and list indexes separated by dots; "" for the whole document),
    /// re-encoded by `json.dumps` with sorted keys: `"4"`, `"true"`, `"\"live\""`, `"[1, 2]"`.
    /// Throws when Python cannot parse the document or the path is not in it.
    package static func value(_ document: String, _ path: String) throws -> String {
        let script = """
            import json, sys
            value = json.loads(open(sys.argv[1]).read())
            for part in [p for p in sys.argv[2].split('.') if p]:
                value = value[int(part)] if isinstance(value, list) else value[part]
            print(json.dumps(value, sort_keys=True))
            """
        return try run(script, on: document, [path]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where `document` breaks the evidence documents' two rules, as Python reads it: an object
    /// whose keys are not in sorted order (Python's `sorted`, code point order), or a null. Each
    /// problem names its place (`flows.3.serverTLS`); none for a document that keeps both.
    package static func unsortedKeysAndNulls(_ document: String) throws -> [String] {
        let script = """
            import json, sys
            problems = []
            def walk(value, path):
                if value is None:
                    problems.append(path + ": null")
                elif isinstance(value, list):
                    for index, item in enumerate(value):
                        walk(item, path + "." + str(index))
                elif isinstance(value, dict):
                    for key, item in value.items():
                        walk(item, path + "." + key)
            def pairs(items):
                keys = [key for key, _ in items]
                if keys != sorted(keys):
                    problems.append("keys not sorted: " + ", ".join(keys))
                return dict(items)
            walk(json.loads(open(sys.argv[1], encoding="utf-8").read(), object_pairs_hook=pairs), "")
            print(json.dumps(problems))
            """
        return try JSONDecoder().decode([String].self, from: Data(try run(script, on: document).utf8))
    }

    /// What `script` printed, run with the document's file as its first argument, then `arguments`.
    private static func run(_ script: String, on document: String, _ arguments: [String] = []) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("document.json")
        try Data(document.utf8).write(to: input)
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, input.path] + arguments)
        guard result.status == 0 else { throw Refusal(message: result.err) }
        return result.out
    }

    package struct Refusal: Error, CustomStringConvertible {
        package let message: String
        package var description: String { "python's json refused: \(message)" }
    }
}
