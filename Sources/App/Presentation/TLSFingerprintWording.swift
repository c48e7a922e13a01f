import Shared

/// A flow's TLS fingerprints in every document and screen that shows the flow: JA4 and JA3 of its
/// ClientHello, JA3S of a cleartext ServerHello. JA3 and JA3S are written as Wireshark names them:
/// `ja3` the MD5 hash, `ja3Full` the string it hashes.
enum TLSFingerprintWording {
    /// `"fingerprints": {"ja4", "ja3", "ja3Full", "ja3s", "ja3sFull"}` (each null when its hello
    /// was not read), or null when neither hello was.
    static func write(client: ClientHelloFingerprints?, server: ServerHelloFingerprints?, to out: inout JSONWriter) {
        guard client != nil || server != nil else {
            out.key("fingerprints")
            out.null()
            return
        }
        out.beginObject("fingerprints")
        out.string("ja4", client?.ja4)
        out.string("ja3", client?.ja3)
        out.string("ja3Full", client?.ja3Full)
        out.string("ja3s", server?.ja3s)
        out.string("ja3sFull", server?.ja3sFull)
        out.endObject()
    }

    static func write(_ stored: StoredFlow, to out: inout JSONWriter) {
        write(client: stored.clientFingerprints, server: stored.serverFingerprints, to: &out)
    }

    /// The fingerprints as labelled facts, in reading order: what `flow ID`, `analyze` and the
    /// Inspector's TLS section say. Empty when neither hello was read.
    static func facts(client: ClientHelloFingerprints?, server: ServerHelloFingerprints?) -> [(label: String, value: String)] {
        var facts: [(label: String, value: String)] = []
        if let client {
            facts.append(("JA4", client.ja4))
            facts.append(("JA3", "\(client.ja3) (\(client.ja3Full))"))
        }
        if let server { facts.append(("JA3S", "\(server.ja3s) (\(server.ja3sFull))")) }
        return facts
    }
}
