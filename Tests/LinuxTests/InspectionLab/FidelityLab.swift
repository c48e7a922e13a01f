import Foundation
import Linux
import Shared
import TestSupport

/// The servers a client meets in the fidelity tests, all on the lab's server address beside the
/// inspection lab's nginx (443, HTTP/2 and HTTP/1.1): each one a way a real server can hold a
/// client to its word. Made with the lab's PKI (`secure.test`), plus a client CA of its own for
/// the servers that ask for the app's certificate.
struct FidelityLab {
    /// `openssl s_server` speaking TLS 1.2 only.
    static let tls12Only = 4431
    /// `openssl s_server` at TLS 1.3 requiring a client certificate (`-Verify`).
    static let clientCertificate13 = 4432
    /// `openssl s_server` at TLS 1.2 with one cipher suite only.
    static let oneCipher = 4433
    /// A Python server that truncates, resets, or answers only after the client's end of stream.
    static let python = 4434
    /// nginx at TLS 1.2 with `ssl_verify_client on`.
    static let nginxClientCertificate = 8443
    /// The one suite `oneCipher` speaks.
    static let serverCipher = "ECDHE-ECDSA-AES256-GCM-SHA384"

    let inspection: InspectionLab
    private var servers: [Process] = []

    var host: String { InspectionLab.host }
    var root: String { inspection.pki.root }
    func file(_ name: String) -> URL { inspection.file(name) }

    init() throws {
        inspection = try InspectionLab()
        do {
            try makeClientCertificate()
            try start()
        } catch {
            remove()
            throw error
        }
    }

    func remove() {
        servers.forEach(LabScripts.stop)
        inspection.remove()
    }

    private var leaf: String { inspection.pki.chain(for: host).replacingOccurrences(of: ".chain.pem", with: ".pem") }
    private var intermediate: String {
        URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("intermediate.pem").path
    }

    /// A client CA and a certificate it signs for `clientAuth`, in the lab's work directory.
    private func makeClientCertificate() throws {
        let work = inspection.work.url.path
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try ExternalCommand.run(["openssl", "req", "-x509"] + key + ["-keyout", "\(work)/client-ca.key", "-out", "\(work)/client-ca.pem",
                                                                     "-subj", "/CN=Fidelity Client CA", "-days", "2"])
        try ExternalCommand.run(["openssl", "req", "-new"] + key + ["-keyout", "\(work)/client.key", "-out", "\(work)/client.csr",
                                                                    "-subj", "/CN=the app"])
        try "extendedKeyUsage=clientAuth\n".write(toFile: "\(work)/client.ext", atomically: true, encoding: .utf8)
        try ExternalCommand.run(["openssl", "x509", "-req", "-in", "\(work)/client.csr", "-CA", "\(work)/client-ca.pem",
                                 "-CAkey", "\(work)/client-ca.key", "-CAcreateserial", "-out", "\(work)/client.pem",
                                 "-days", "2", "-extfile", "\(work)/client.ext"])
    }

    private mutating func start() throws {
        let work = inspection.work.url.path, www = inspection.www.path
        let address = Lab.serverIPv4
        func sServer(_ port: Int, _ options: [String]) -> [String] {
            // -WWW serves files from the working directory: the lab's www.
            let command = (["openssl", "s_server", "-accept", "\(address):\(port)", "-WWW", "-quiet", "-cert", leaf,
                            "-key", inspection.pki.key(for: host), "-cert_chain", intermediate] + options).joined(separator: " ")
            return ["sh", "-c", "cd \(www) && exec \(command)"]
        }
        servers.append(try LabScripts.start(sServer(Self.tls12Only, ["-tls1_2"]), in: inspection.lab.server))
        servers.append(try LabScripts.start(sServer(Self.clientCertificate13, ["-tls1_3", "-Verify", "1", "-CAfile", "\(work)/client-ca.pem"]),
                                            in: inspection.lab.server))
        servers.append(try LabScripts.start(sServer(Self.oneCipher, ["-tls1_2", "-cipher", Self.serverCipher]), in: inspection.lab.server))
        let script = file("fidelity_server.py")
        try Self.pythonServer.write(to: script, atomically: true, encoding: .utf8)
        servers.append(try LabScripts.start([LabScripts.python, script.path, address, "\(Self.python)",
                                             inspection.pki.chain(for: host), inspection.pki.key(for: host)], in: inspection.lab.server))
        let nginx = file("nginx-client-certificate.conf")
        try nginxConfiguration(work: work, www: www).write(to: nginx, atomically: true, encoding: .utf8)
        servers.append(try LabScripts.start(["nginx", "-c", nginx.path, "-e", "stderr"], in: inspection.lab.server))
        for port in [Self.tls12Only, Self.clientCertificate13, Self.oneCipher, Self.python, Self.nginxClientCertificate] {
            try LabScripts.waitForListener(address, port, from: inspection.lab.server)
        }
    }

    private func nginxConfiguration(work: String, www: String) -> String {
        let temp = file("nginx-cc-temp").path
        return """
            daemon off; master_process off; user root; pid \(work)/nginx-cc.pid;
            error_log stderr;
            events {}
            http {
                access_log off;
                client_body_temp_path \(temp); proxy_temp_path \(temp); fastcgi_temp_path \(temp);
                uwsgi_temp_path \(temp); scgi_temp_path \(temp);
                types { application/json json; }
                server {
                    listen \(Lab.serverIPv4):\(Self.nginxClientCertificate) ssl;
                    server_name \(host);
                    ssl_protocols TLSv1.2;
                    ssl_certificate \(inspection.pki.chain(for: host));
                    ssl_certificate_key \(inspection.pki.key(for: host));
                    ssl_verify_client on;
                    ssl_client_certificate \(work)/client-ca.pem;
                    root \(www);
                }
            }
            """
    }

    /// GET /truncate: a Content-Length of 100 000 and 40 000 bytes, then the end of the stream
    /// without close_notify. GET /reset: the same bytes, then a reset. GET /after-eof: waits for the
    /// client's end of stream, then answers how long its request was and closes cleanly.
    static let pythonServer = #"""
    import select, socket, ssl, struct, sys, threading, time
    bind, port, chain, key = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain, key)
    listener = socket.create_server((bind, port))

    def serve(raw):
        try:
            tls = context.wrap_socket(raw, server_side=True)
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = tls.recv(4096)
                if not chunk:
                    return
                request += chunk
            path = request.split(b" ")[1]
            if path == b"/after-eof":
                # The client's FIN, seen on the socket itself: reading TLS past it would spoil the session.
                while True:
                    select.select([tls], [], [])
                    if not socket.socket.recv(tls, 1, socket.MSG_PEEK):
                        break
                    time.sleep(0.01)
                body = str(len(request)).encode()
                tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
                tls.unwrap().close()
                return
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n" + b"x" * 40000)
            if path == b"/reset":
                tls.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            tls.close()   # no close_notify (only unwrap sends one): the end of the stream, or a reset
        except (OSError, ssl.SSLError):
            pass

    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()
    """#
}
