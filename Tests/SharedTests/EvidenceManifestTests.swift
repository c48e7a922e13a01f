import Foundation
import Testing
import Shared

/// `manifest.json` (audit.md § Evidence bundle) and the SHA-256 it records: the digest against
/// FIPS 180-2's vectors, each refusal, the order, and the same bytes for the same files.
@Suite struct EvidenceManifestTests {
    /// FIPS 180-2 appendix B (B.1 "abc", B.2 the 448-bit message, B.3 a million "a"), and the
    /// empty message's well-known digest.
    static let vectors: [(message: [UInt8], digest: String)] = [
        (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
         "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    static let digest = String(repeating: "0123456789abcdef", count: 4)

    @Test("SHA-256 matches FIPS 180-2's vectors, in one piece and fed in uneven pieces")
    func fipsVectors() {
        for (message, digest) in Self.vectors {
            #expect(X509Digest.lowercaseHex(X509Digest.sha256(message)) == digest)
            var hasher = SHA256Hasher()
            var offset = 0, piece = 0
            while offset < message.count {
                piece = piece % 7 + 1   // 1, 2, … 7 bytes, then 1 again: every block boundary is crossed unevenly
                let end = min(message.count, offset + (message.count > 1000 ? piece * 9_973 : piece))
                hasher.update(message[offset..<end])
                offset = end
            }
            hasher.update([UInt8]())
            #expect(hasher.byteCount == UInt64(message.count))
            #expect(X509Digest.lowercaseHex(hasher.finalize()) == digest)
        }
    }

    @Test("an entry of bytes at hand records their count and their digest in lowercase hex")
    func entryOfContents() {
        let entry = EvidenceManifest.Entry(name: "flows.csv", contents: Array("abc".utf8))
        #expect(entry.byteCount == 3 && entry.sha256 == Self.vectors[0].digest)
    }

    @Test("files are listed sorted by name, whatever order they are given in")
    func sorted() throws {
        let names = ["session.json", "capture.pcapng", "flows.json", "Zeta", "capture.json", "findings.json", "flows.csv"]
        let manifest = try EvidenceManifest(entries: names.map { EvidenceManifest.Entry(name: $0, byteCount: 1, sha256: Self.digest) })
        // UTF-8 byte order: capitals first, "." (0x2E) before letters.
        #expect(manifest.entries.map(\.name)
                == ["Zeta", "capture.json", "capture.pcapng", "findings.json", "flows.csv", "flows.json", "session.json"])
    }

    @Test("each refusal: no file, a name that leaves the folder, a name twice, the manifest itself, a digest not in the manifest's form")
    func refusals() {
        func refusal(_ entries: [(String, String)]) -> EvidenceManifestRefusal? {
            do throws(EvidenceManifestRefusal) {
                _ = try EvidenceManifest(entries: entries.map { EvidenceManifest.Entry(name: $0.0, byteCount: 0, sha256: $0.1) })
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal([]) == .noFiles)
        for name in ["", ".", "..", "a/b", "/flows.csv", "flows.csv/"] {
            #expect(refusal([("flows.csv", Self.digest), (name, Self.digest)]) == .invalidName(name))
        }
        #expect(refusal([("flows.csv", Self.digest), ("flows.csv", Self.digest)]) == .duplicateName("flows.csv"))
        #expect(refusal([("manifest.json", Self.digest)]) == .listsItself)
        for digest in [Self.digest.uppercased(), String(Self.digest.dropLast()), Self.digest + "0",
                       String(Self.digest.dropLast()) + "g", "", String(repeating: "ab:", count: 21) + "a"] {
            #expect(refusal([("flows.csv", digest)]) == .invalidDigest(name: "flows.csv", digest: digest))
        }
        // The checks run on the sorted list: the same refusal whichever order the entries come in.
        #expect(refusal([("b", "bad"), ("a", "worse")]) == .invalidDigest(name: "a", digest: "worse"))
        #expect(refusal([("a", "worse"), ("b", "bad")]) == .invalidDigest(name: "a", digest: "worse"))
        #expect(EvidenceManifestRefusal.invalidName("..").description.contains("\"..\""))
    }

    @Test("the document is these exact bytes: sorted keys, one line a file, the format and its version")
    func exactBytes() throws {
        let manifest = try EvidenceManifest(entries: [
            EvidenceManifest.Entry(name: "session.json", byteCount: 120, sha256: Self.vectors[1].digest),
            EvidenceManifest.Entry(name: "capture.pcapng", byteCount: 4_294_967_296, sha256: Self.vectors[0].digest),
        ])
        let expected = """
            {"files":[
            {"byteCount":4294967296,"name":"capture.pcapng","sha256":"\(Self.vectors[0].digest)"},
            {"byteCount":120,"name":"session.json","sha256":"\(Self.vectors[1].digest)"}
            ],"format":"tunnelvision.evidence.manifest","formatVersion":1}

            """
        #expect(String(decoding: manifest.json, as: UTF8.self) == expected)
    }

    @Test("the same files give the same bytes, and Foundation's JSON reads them back")
    func deterministicAndParsed() throws {
        let entries = [EvidenceManifest.Entry(name: "flows.csv", contents: Array("a,b\r\n".utf8)),
                       EvidenceManifest.Entry(name: "naïve \"quoted\".json", contents: [UInt8]()),
                       EvidenceManifest.Entry(name: "capture.pcapng", contents: [1, 2, 3])]
        let one = try EvidenceManifest(entries: entries).json
        let other = try EvidenceManifest(entries: entries.reversed()).json
        #expect(one == other)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(one)) as? [String: Any])
        #expect(object["format"] as? String == EvidenceBundleFormat.manifestDocument)
        #expect(object["formatVersion"] as? Int == 1)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["name"] as? String } == ["capture.pcapng", "flows.csv", "naïve \"quoted\".json"])
        #expect(files.compactMap { $0["byteCount"] as? Int } == [3, 5, 0])
        #expect(files.last?["sha256"] as? String == Self.vectors[1].digest)
        #expect(Set(files.flatMap(\.keys)) == ["byteCount", "name", "sha256"])
    }
}
