import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// Inspection never weakens a client: the same real clients (curl, wget, openssl s_client,
/// Python's ssl) meet the same real servers (openssl s_server, nginx, a Python server that
/// truncates and resets) once through plain `run` and once through `run --inspect`, and whatever
/// each client did without us it does with us — its exit status, the bytes it got, the error it
/// raised — except that its content is read. Then the inspected run's history says what became of
/// each connection and why, as typed values. Needs root.
@Suite("Inspection keeps every client's word", .serialized)
struct InspectionFidelityTests {
    /// One line `NAME=RESULT` per step; the clients trust the lab's root in addition to the
    /// defaults, so the same script runs both ways (with `--inspect`, the run's bundle adds its own).
    func script(_ lab: FidelityLab) throws -> String {
        let host = lab.host, address = Lab.serverIPv4, root = lab.root
        let work = lab.inspection.work.url.path
        let hosts = lab.file("hosts")
        try "127.0.0.1 localhost\n\(address) \(host)\n".write(to: hosts, atomically: true, encoding: .utf8)
        let python = lab.file("fidelity_client.py")
        try Self.pythonClient.write(to: python, atomically: true, encoding: .utf8)
        func curl(_ port: Int, _ path: String, _ options: String = "") -> String {
            "curl -sS --max-time 20 --cacert \(root) --resolve \(host):\(port):\(address) \(options) "
                + "-o /dev/null -w '%{size_download}' https://\(host):\(port)\(path) 2>/dev/null"
        }
        func step(_ name: String, _ command: String) -> String { "r=$(\(command)); echo \"\(name)=$? ${r}\"" }
        let py = "\(LabScripts.python) \(python.path) \(address) \(host) \(root)"
        let clientCertificate = "--cert \(work)/client.pem --key \(work)/client.key"
        return [
            // The client's TLS policy binds the upstream leg.
            step("tls13-only-against-tls12", curl(FidelityLab.tls12Only, "/api.json", "--tlsv1.3")),
            step("tls12-against-tls12", curl(FidelityLab.tls12Only, "/api.json")),
            step("one-cipher-not-the-servers", curl(FidelityLab.oneCipher, "/api.json",
                                                    "--tls-max 1.2 --ciphers ECDHE-ECDSA-AES128-GCM-SHA256")),
            step("one-cipher-the-servers", curl(FidelityLab.oneCipher, "/api.json",
                                                "--tls-max 1.2 --ciphers \(FidelityLab.serverCipher)")),
            // A client that finishes its handshake and says nothing is no refusal.
            step("handshake-only", "openssl s_client -connect \(address):443 -servername \(host) -CAfile \(root) -CApath /etc/ssl/certs "
                 + "-verify_return_error </dev/null >/dev/null 2>&1"),
            step("after-handshake-only", curl(443, "/api.json")),
            // Servers that ask for the app's certificate, at TLS 1.3 and 1.2.
            step("tls13-certificate-none", curl(FidelityLab.clientCertificate13, "/api.json")),
            step("tls13-certificate-given", curl(FidelityLab.clientCertificate13, "/api.json", clientCertificate)),
            step("tls13-certificate-again", curl(FidelityLab.clientCertificate13, "/api.json", clientCertificate)),
            step("tls12-certificate-none", curl(FidelityLab.nginxClientCertificate, "/api.json")),
            step("tls12-certificate-given", curl(FidelityLab.nginxClientCertificate, "/api.json", clientCertificate)),
            // A half-closed client still gets its answer.
            step("half-close-nginx", "\(py) 443 half-close /api.json"),
            step("half-close-after-eof", "\(py) \(FidelityLab.python) half-close /after-eof"),
            // Truncation is never hidden.
            step("curl-truncated", curl(FidelityLab.python, "/truncate")),
            // After a reset, how much arrived first is the race of the two; how the read ended is not.
            step("curl-reset", curl(FidelityLab.python, "/reset") + " >/dev/null"),
            step("wget-truncated", "unshare -m sh -c 'mount --bind \(hosts.path) /etc/hosts && "
                 + "wget -q --tries=1 --timeout=20 --ca-certificate=\(root) -O /dev/null "
                 + "https://\(host):\(FidelityLab.python)/truncate'"),
            step("python-truncated", "\(py) \(FidelityLab.python) ragged /truncate"),
            step("python-reset", "\(py) \(FidelityLab.python) ragged /reset"),
            // Any port: the same nginx content through the TLS 1.2-only server's port works too.
            step("curl-any-port", curl(FidelityLab.tls12Only, "/api.json")),
        ].joined(separator: "\n")
    }

    /// `half-close PATH`: sends the request, shuts its sending side (a FIN, no close_notify), reads
    /// to the end; prints how many bytes came. `ragged PATH`: reads with ragged EOFs not
    /// suppressed; prints how the read ended.
    static let pythonClient = #"""
    import socket, ssl, sys
    address, host, root, port, mode, path = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
    context = ssl.create_default_context()
    context.load_verify_locations(root)
    raw = socket.create_connection((address, port), timeout=20)
    tls = context.wrap_socket(raw, server_hostname=host, suppress_ragged_eofs=(mode != "ragged"))
    tls.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: " + host.encode() + b"\r\nConnection: close\r\n\r\n")
    if mode == "half-close":
        # The socket's own shutdown: SSLSocket.shutdown would drop the TLS session with it.
        socket.socket.shutdown(tls, socket.SHUT_WR)
    received = b""
    ending = "end"
    try:
        while True:
            chunk = tls.recv(65536)
            if not chunk:
                break
            received += chunk
    except Exception as error:
        ending = type(error).__name__
    print(len(received) if mode == "half-close" else ending)
    """#

    /// Runs `script` under `run` with `options`, answering each step's line.
    func results(_ lab: FidelityLab, _ options: [String]) throws -> [String: String] {
        let result = try lab.inspection.run(options, script: try script(lab))
        // A run that never got the clients going says why, rather than nineteen empty outcomes.
        #expect(result.out.contains("="), "run \(options) printed nothing (status \(result.status)): \(result.err.suffix(1500))")
        var lines: [String: String] = [:]
        for line in result.out.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            lines[String(line[..<equals])] = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
        return lines
    }

    @Test("every client does through run --inspect what it does through plain run, and each connection says why it was or was not inspected")
    func clientsBehaveTheSame() async throws {
        let lab = try FidelityLab()
        defer { lab.remove() }
        let plain = try results(lab, [])
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: lab.inspection.data))
        let plainCount = try await store.recentFlows(limit: 10_000).count
        let inspected = try results(lab, ["--inspect", "--upstream-ca", lab.root])

        // What the clients do without us is what the servers make them do; with us, the same.
        #expect(plain.count == 19, "\(plain)")
        for (name, outcome) in plain.sorted(by: { $0.key < $1.key }) {
            #expect(inspected[name] == outcome, "\(name): \(outcome) without inspection, \(inspected[name] ?? "nothing") with it")
        }
        // And the servers did hold the clients to their word (a check on the lab itself).
        #expect(plain["tls13-only-against-tls12"]?.hasPrefix("35 ") == true, "\(plain)")
        #expect(plain["one-cipher-not-the-servers"]?.hasPrefix("35 ") == true, "\(plain)")
        #expect(plain["one-cipher-the-servers"]?.hasPrefix("0 ") == true, "\(plain)")
        #expect(plain["tls13-certificate-given"]?.hasPrefix("0 ") == true, "\(plain)")
        #expect(plain["tls13-certificate-none"]?.hasPrefix("0 ") == false, "\(plain)")
        #expect(plain["tls12-certificate-given"]?.hasPrefix("0 ") == true, "\(plain)")
        #expect(plain["half-close-after-eof"]?.hasPrefix("0 ") == true && plain["half-close-after-eof"] != "0 0", "\(plain)")
        #expect(plain["half-close-nginx"]?.hasPrefix("0 ") == true && plain["half-close-nginx"] != "0 0", "\(plain)")
        #expect(plain["wget-truncated"]?.hasPrefix("4") == true, "\(plain)")
        #expect(plain["python-truncated"] == "0 SSLEOFError", "\(plain)")

        // What the inspected run recorded, typed.
        let ours = try await store.recentFlows(limit: 10_000).sorted { $0.id < $1.id }.dropFirst(plainCount).filter { $0.key.proto == .tcp }
        let server = try #require(IPAddress(parsing: Lab.serverIPv4))
        func flows(port: Int) -> [StoredFlow] {
            let endpoint = IPEndpoint(address: server, port: UInt16(port))
            return ours.filter { $0.key.endpointA == endpoint || $0.key.endpointB == endpoint }
        }
        func kinds(_ port: Int) -> [InspectionReasonKind?] { flows(port: port).map { $0.inspectionReason?.kind } }
        func statuses(_ port: Int) -> [TLSInspectionStatus] { flows(port: port).map(\.tlsStatus) }

        // 4431: the TLS 1.3-only client's offer is refused by the 1.2 server, who tells it so
        // itself; the next client, within its limits, is inspected.
        #expect(kinds(FidelityLab.tls12Only).first == .clientTLSPolicy, "\(flows(port: FidelityLab.tls12Only))")
        #expect(statuses(FidelityLab.tls12Only).dropFirst() == [.inspected, .inspected])
        #expect(kinds(FidelityLab.oneCipher) == [.clientTLSPolicy, nil])
        #expect(statuses(FidelityLab.oneCipher) == [.encrypted, .inspected])
        // 443: the handshake-only client is inspected, not refused, and nothing after it is held against the host.
        #expect(statuses(443).allSatisfy { $0 == .inspected }, "\(flows(port: 443))")
        // Servers asking for the app's certificate: not inspectable from the first connection, remembered.
        for port in [FidelityLab.clientCertificate13, FidelityLab.nginxClientCertificate] {
            #expect(statuses(port).allSatisfy { $0 == .notInspectable }, "\(port): \(flows(port: port))")
            #expect(kinds(port).allSatisfy { $0 == .clientCertificateRequested }, "\(port): \(flows(port: port))")
        }
        // The Python server: inspected, and how it ended each stream recorded.
        let endings = flows(port: FidelityLab.python).compactMap(\.serverEnding)
        #expect(endings.contains(.withoutCloseNotify) && endings.contains(.reset), "\(endings)")
        #expect(statuses(FidelityLab.python).allSatisfy { $0 == .inspected })
    }
}
