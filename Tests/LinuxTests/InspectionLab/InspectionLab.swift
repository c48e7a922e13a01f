import Foundation
import Linux
import Shared
import TestSupport

/// A lab for inspection: the server namespace runs nginx on 198.19.0.2:443 (HTTP/2 and HTTP/1.1)
/// with a leaf for `secure.test` from the lab's own PKI (a root the host's trust store has never
/// heard of, passed to the tunnel with `--upstream-ca`), and a data directory with the person's CA.
/// nginx runs as one process (`master_process off`): a worker would keep the pipes of the master
/// open after its SIGKILL, and the test would wait on it forever.
struct InspectionLab {
    static let host = "secure.test"
    let lab: Lab
    let work: TemporaryDirectory
    let pki: DemoCertificates
    let data: URL
    let www: URL
    private let nginx: Process
    let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) })
    static let json = #"{"name":"secure","items":[1,2,3],"nested":{"ok":true}}"#

    init(createCA: Bool = true) throws {
        lab = try Lab()
        work = TemporaryDirectory("inspection")
        do {
            let pkiDirectory = work.url.appendingPathComponent("pki")
            try FileManager.default.createDirectory(at: pkiDirectory, withIntermediateDirectories: true)
            pki = try DemoCertificates(in: pkiDirectory, names: [Self.host])
            www = work.url.appendingPathComponent("www")
            try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
            try body.write(to: www.appendingPathComponent("file.bin"))
            try Data(Self.json.utf8).write(to: www.appendingPathComponent("api.json"))
            data = work.url.appendingPathComponent("data")
            let config = work.url.appendingPathComponent("nginx.conf")
            let temp = work.url.appendingPathComponent("nginx-temp").path
            try """
                daemon off; master_process off; user root; pid \(work.url.appendingPathComponent("nginx.pid").path);
                error_log stderr;
                events {}
                http {
                    access_log off;
                    client_body_temp_path \(temp); proxy_temp_path \(temp); fastcgi_temp_path \(temp);
                    uwsgi_temp_path \(temp); scgi_temp_path \(temp);
                    types { application/json json; application/octet-stream bin; }
                    server {
                        listen \(Lab.serverIPv4):443 ssl http2;
                        server_name \(Self.host);
                        ssl_certificate \(pki.chain(for: Self.host));
                        ssl_certificate_key \(pki.key(for: Self.host));
                        root \(www.path);
                    }
                }
                """.write(to: config, atomically: true, encoding: .utf8)
            nginx = try LabScripts.start(["nginx", "-c", config.path, "-e", "stderr"], in: lab.server)
            try LabScripts.waitForListener(Lab.serverIPv4, 443, from: lab.server)
            if createCA {
                let made = try Self.tunnelvision(["ca", "create", "--data-dir", data.path])
                guard made.status == 0 else { throw CommandError.failed(command: "ca create", status: made.status, standardError: made.err) }
            }
        } catch {
            lab.remove()
            throw error
        }
    }

    func remove() {
        LabScripts.stop(nginx)
        lab.remove()
    }

    /// `curl` flags that reach the lab's server by name without DNS.
    var resolve: [String] { ["--resolve", "\(Self.host):443:\(Lab.serverIPv4)"] }
    var url: String { "https://\(Self.host)" }

    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    /// `tunnelvision run ARGS -- sh -c SCRIPT` in the lab's host namespace.
    func run(_ arguments: [String], script: String) throws -> (status: Int32, out: String, err: String) {
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        return try BuiltProduct.run(ip, lab.host.command([tunnelvision.path, "run", "--data-dir", data.path] + arguments
                                                          + ["--", "sh", "-c", script]).dropFirst().map { $0 })
    }

    /// The flows of the history, as `flows --json` lists them.
    func flows() throws -> [[String: Any]] {
        let listed = try Self.tunnelvision(["flows", "--json", "--data-dir", data.path])
        let object = try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any]
        return object?["flows"] as? [[String: Any]] ?? []
    }

    /// `flow ID --json`.
    func flow(_ id: Int) throws -> [String: Any] {
        let shown = try Self.tunnelvision(["flow", "\(id)", "--json", "--data-dir", data.path])
        return try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any] ?? [:]
    }

    func file(_ name: String) -> URL { work.url.appendingPathComponent(name) }

    /// A directory with no certificate in it, for a client that must trust one file only.
    var emptyDirectory: URL {
        let empty = file("no-certificates")
        try? FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        return empty
    }

    /// The `inspection` counters of a `stats --json` answer saved at `url`, wherever they sit.
    static func inspectionCounters(in url: URL) throws -> [String: Any]? {
        func find(_ node: Any) -> [String: Any]? {
            if let object = node as? [String: Any] {
                if let found = object["inspection"] as? [String: Any] { return found }
                for value in object.values { if let found = find(value) { return found } }
            }
            return nil
        }
        return find(try JSONSerialization.jsonObject(with: Data(contentsOf: url)))
    }
}
