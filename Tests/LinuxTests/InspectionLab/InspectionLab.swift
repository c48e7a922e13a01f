import Bench
import Foundation
import Linux
import Shared
import TestSupport

/// A lab for inspection: the server namespace runs nginx on 198.19.0.2:443 (HTTP/2 and HTTP/1.1)
/// with a leaf for `secure.test` from the lab's own PKI (a root the host's trust store has never
/// heard of, passed to the tunnel with `--upstream-ca`), and a data directory with the person's CA.
/// The server is `InspectionNginx`, which `tvlab bench inspect` runs too.
struct InspectionLab {
    static let host = "secure.test"
    let lab: Lab
    let work: TemporaryDirectory
    let pki: DemoCertificates
    let data: URL
    /// The home the lab's runs give CMD (`HOME`): each lab its own, so the NSS mount point one
    /// run makes there is no other test's, and a test can see its home as it was.
    let home: URL
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
            home = work.url.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let server = InspectionNginx(host: Self.host, pki: pki, root: www, work: work.url)
            nginx = try LabScripts.start(try server.prepare(), in: lab.server)
            try LabScripts.waitForListener(Lab.serverIPv4, InspectionNginx.port, from: lab.server)
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
        return try BuiltProduct.run(ip, lab.host.command(["env", "HOME=\(home.path)", tunnelvision.path, "run", "--data-dir", data.path] + arguments
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

    /// The history's TCP flows to the lab's server at `port`, oldest first, as the store reads them:
    /// typed, whatever the commands print.
    func storedFlows(port: Int) async throws -> [StoredFlow] {
        let server = IPEndpoint(address: IPAddress(parsing: Lab.serverIPv4)!, port: UInt16(port))
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data))
        return try await store.recentFlows(limit: 10_000)
            .filter { $0.key.proto == .tcp && ($0.key.endpointA == server || $0.key.endpointB == server) }
            .sorted { $0.id < $1.id }
    }

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
