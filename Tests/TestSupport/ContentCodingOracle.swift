import Foundation

/// Python's `gzip`, `zlib` and `brotli` (PyPI) as the outside encoders of the content codings
/// decrypted bodies are decoded from.
public enum ContentCodingOracle {
    /// One text of 200 000 bytes coded every way: "plain", "gzip", "zlib", "rawDeflate", "br",
    /// "gzipThenBr" (br over gzip, as "Content-Encoding: gzip, br" lists them), and "bomb": 64 MiB
    /// of zeros through gzip. Made once per test process.
    public static func codings() throws -> [String: Data] { try made.get() }

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
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script])
        guard result.status == 0 else { throw HTTP2Oracle.Failure(message: result.err) }
        let document = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: String] ?? [:]
        return document.mapValues(hexData)
    }

    /// `plain` coded by Python: "gzip", "zlib" or "br".
    public static func coded(_ plain: Data, with coding: String) throws -> Data {
        let script = """
            import brotli, gzip, sys, zlib
            plain = bytes.fromhex(sys.argv[2])
            print({"gzip": gzip.compress, "zlib": zlib.compress, "br": brotli.compress}[sys.argv[1]](plain).hex())
            """
        let hex = plain.map { String(format: "%02x", $0) }.joined()
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, coding, hex])
        guard result.status == 0 else { throw HTTP2Oracle.Failure(message: result.err) }
        return hexData(result.out.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    public static func hexData(_ hex: String) -> Data {
        var data = Data(capacity: hex.utf8.count / 2)
        var high: UInt8?
        for byte in hex.utf8 {
            let nibble = byte <= 57 ? byte - 48 : (byte | 0x20) - 87
            if let first = high { data.append(first << 4 | nibble); high = nil } else { high = nibble }
        }
        return data
    }
}
