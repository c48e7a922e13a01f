import Foundation

/// Python's `gzip`, `zlib` and `brotli` (PyPI) as the outside encoders of the content codings
/// decrypted bodies are decoded from.
package enum ContentCodingOracle {
    /// One text of 200 000 bytes coded every way: "plain", "gzip", "zlib", "rawDeflate", "br",
    /// "gzipThenBr" (br over gzip, as "Content-Encoding: gzip, br" lists them), and "bomb": 64 MiB
    /// of zeros through gzip. Made once per test process.
    package static func codings() throws -> [String: Data] { try made.get() }

    private static let made = Result { try make() }

    private static func make() throws -> [String: Data] {
        let script = """
            import brotli, gzip, json, random, zlib
            random.seed(5)
            words = ["flow", "tunnel", "packet", "name", "stream", "frame", "body", "header"]
            plain = " ".join(random.choice(words) for _ in range(40000)).encode()[:200000]
            raw = zlib.compressobj(6, zlib.DEFLATED, -15)
            out = {"plain": plain, "gzip": gzip.compress(plain), "zlib": zlib.compress(plain),
                   "rawDeflate": raw.compress(plain) + raw.flush(), "br": brotli.compress(plain),
                   "gzipThenBr": brotli.compress(gzip.compress(plain)), "bomb": gzip.compress(bytes(64 << 20), 9)}
            print(json.dumps({k: v.hex() for k, v in out.items()}))
            """
        let document = try PythonOracle.json(script) as? [String: String] ?? [:]
        return document.mapValues(HexText.data)
    }

    /// `plain` coded by Python: "gzip", "zlib" or "br".
    package static func coded(_ plain: Data, with coding: String) throws -> Data {
        let script = """
            import brotli, gzip, sys, zlib
            plain = bytes.fromhex(sys.argv[2])
            print({"gzip": gzip.compress, "zlib": zlib.compress, "br": brotli.compress}[sys.argv[1]](plain).hex())
            """
        let hex = plain.map { String(format: "%02x", $0) }.joined()
        return HexText.data(try PythonOracle.output(script, [coding, hex]))
    }
}
