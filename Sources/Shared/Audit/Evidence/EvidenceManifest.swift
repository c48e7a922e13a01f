/// `manifest.json` (audit.md § Evidence bundle): every other file of the bundle with its size and
/// SHA-256, so a recipient can tell a file was not changed or swapped after export. Written last;
/// it does not list itself.
///
///   {"files":[
///   {"byteCount":N,"name":"…","sha256":"64 lowercase hex"},
///   …
///   ],"format":"tunnelvision.evidence.manifest","formatVersion":1}
///
/// Keys sorted, files sorted by name (UTF-8 bytes), one line a file: the same files give the same
/// bytes.
package struct EvidenceManifest: Sendable, Hashable {
    package struct Entry: Sendable, Hashable {
        /// A plain file name inside the bundle's folder.
        package let name: String
        package let byteCount: UInt64
        /// Lowercase hexadecimal, as `sha256sum` prints it.
        package let sha256: String

        package init(name: String, byteCount: UInt64, sha256: String) {
            self.name = name
            self.byteCount = byteCount
            self.sha256 = sha256
        }

        /// The entry of a file whose bytes are all at hand.
        package init(name: String, contents: some Collection<UInt8>) {
            self.init(name: name, byteCount: UInt64(contents.count), sha256: X509Digest.lowercaseHex(X509Digest.sha256(contents)))
        }
    }

    /// Sorted by name.
    package let entries: [Entry]

    /// Refuses, the first of the sorted entries that fails: the checks run on the sorted list, so
    /// the refusal does not depend on the order given.
    package init(entries: [Entry]) throws(EvidenceManifestRefusal) {
        guard !entries.isEmpty else { throw .noFiles }
        let sorted = entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        var names = Set<String>()
        for entry in sorted {
            guard Self.isPlainFileName(entry.name) else { throw .invalidName(entry.name) }
            guard entry.name != EvidenceBundleFormat.manifestFile else { throw .listsItself }
            guard Self.isSHA256Hex(entry.sha256) else { throw .invalidDigest(name: entry.name, digest: entry.sha256) }
            guard names.insert(entry.name).inserted else { throw .duplicateName(entry.name) }
        }
        self.entries = sorted
    }

    /// The document's bytes: UTF-8 JSON, ending with a line break.
    package var json: [UInt8] {
        var out = JSONWriter(capacity: 128 + entries.count * 160)
        out.beginObject()
        out.beginArray("files")
        for entry in entries {
            out.newline()
            out.beginObject()
            out.number("byteCount", entry.byteCount)
            out.string("name", entry.name)
            out.string("sha256", entry.sha256)
            out.endObject()
        }
        out.lineBreak()
        out.endArray()
        out.string("format", EvidenceBundleFormat.manifestDocument)
        out.number("formatVersion", EvidenceBundleFormat.version)
        out.endObject()
        out.lineBreak()
        return Array(out.writer.bytes)
    }

    /// A name that stays inside the bundle's folder: not empty, not `.` or `..`, no `/`.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(UInt8(ascii: "/"))
    }

    /// 64 lowercase hexadecimal digits: the only form the manifest writes.
    static func isSHA256Hex(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// Why a manifest cannot be written. Each is a bug in the exporter that assembled the list, not
/// something the person can fix: the export fails and leaves nothing behind.
package enum EvidenceManifestRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// No file to list.
    case noFiles
    /// A name that is not a plain file name of the bundle's folder (empty, `.`, `..`, or with `/`).
    case invalidName(String)
    /// Two entries of one name.
    case duplicateName(String)
    /// `manifest.json` among the files it lists.
    case listsItself
    /// A digest that is not 64 lowercase hexadecimal digits.
    case invalidDigest(name: String, digest: String)

    package var description: String {
        switch self {
        case .noFiles: "a manifest must list at least one file"
        case let .invalidName(name): "\"\(name)\" is not a file name inside the bundle"
        case let .duplicateName(name): "\"\(name)\" is listed twice"
        case .listsItself: "the manifest cannot list itself"
        case let .invalidDigest(name, digest): "the SHA-256 of \"\(name)\" is not 64 lowercase hexadecimal digits: \"\(digest)\""
        }
    }
}
