import Foundation
import Shared
import Testing
import TestSupport
@testable import App

/// `/api/ca…` against the real `tunnelvision ca` and openssl over the same data directory: the
/// state is `ca show --json` byte for byte, an action answers the new state with what it did, a
/// refusal is the command's own sentence, and the downloads are the root certificate openssl reads.
@Suite(.serialized) struct WebAPICAParityTests {
    typealias P = WebAPICommandParityTests

    static func openssl(_ arguments: [String]) throws -> String {
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
        #expect(result.status == 0, "openssl \(arguments): \(result.err)")
        return result.out
    }

    static func json(_ response: HTTPResponse) throws -> [String: Any] { try HistoryCommandSupport.pythonJSON(P.text(response)) }

    @Test("tls-inspection on with no CA: the API refuses it with the command's sentence (400, exit status 2), nothing saved; with a CA both accept it")
    func inspectionOnNeedsACA() async throws {
        let data = TemporaryDirectory("tv-webca-switch")
        let api = P.api(data.url), d = ["--data-dir", data.url.path]
        let body = #"{"setting": "tls-inspection", "value": "on"}"#
        let refused = await P.ask(api, "POST", "/api/settings", body: body)
        try P.expectSameError(refused, status: .badRequest, ["settings", "set", "tls-inspection", "on"] + d)
        let command = try WebAPICommandParityTests.C.run(["settings", "set", "tls-inspection", "on"] + d)
        #expect(command.status == 2)
        #expect(command.err == "tunnelvision: tls-inspection on is refused: there is no local CA to sign with; "
                + "'tunnelvision ca create' makes one. Nothing was changed.\n")
        #expect(SettingsStore(dataDirectory: data.url).loadForSession().settings.tlsInspectionEnabled == false)
        // Off is never refused; on is, once a CA can sign.
        #expect(try P.command(["settings", "set", "tls-inspection", "off"] + d) == "tls-inspection off\n")
        _ = try P.command(["ca", "create"] + d)
        #expect((await P.ask(api, "POST", "/api/settings", body: body)).status == .ok)
        #expect(try P.command(["settings", "set", "tls-inspection", "on"] + d) == "tls-inspection on\n")
        #expect(SettingsStore(dataDirectory: data.url).loadForSession().settings.tlsInspectionEnabled)
    }

    @Test("GET /api/ca is 'ca show --json'; create, remake and remove answer the new state and the command's lines")
    func lifecycle() async throws {
        let data = TemporaryDirectory("tv-webca")
        let api = P.api(data.url), d = ["--data-dir", data.url.path]
        #expect(try P.text(await P.ask(api, "GET", "/api/ca")) == P.command(["ca", "show", "--json"] + d))

        let created = try Self.json(await P.ask(api, "POST", "/api/ca/create"))
        #expect(created["status"] as? String == "created")
        #expect((created["lines"] as? [String]) == ["created a local CA"])
        let fingerprint = try Self.openssl(["x509", "-in", DataDirectoryLayout.caCertificate(in: data.url).path, "-noout", "-fingerprint", "-sha256"])
        #expect(fingerprint == "sha256 Fingerprint=\(created["fingerprintSHA256"] as? String ?? "")\n")
        #expect(try P.text(await P.ask(api, "GET", "/api/ca")) == P.command(["ca", "show", "--json"] + d))

        // Create over a CA: 409, with the sentence 'ca create' prints.
        try P.expectSameError(await P.ask(api, "POST", "/api/ca/create"), status: .conflict, ["ca", "create"] + d)

        _ = try P.command(["settings", "set", "tls-inspection", "on"] + d)
        let remade = try Self.json(await P.ask(api, "POST", "/api/ca/remake"))
        #expect(remade["fingerprintSHA256"] as? String != created["fingerprintSHA256"] as? String)
        #expect(remade["inspection"] as? Bool == false)
        #expect((remade["lines"] as? [String]) == ["turned TLS inspection off (tls-inspection off)", "removed the local CA: its key and root certificate are deleted",
                                                     "created a new local CA"])

        let removed = try Self.json(await P.ask(api, "POST", "/api/ca/remove"))
        #expect(removed["status"] as? String == "notCreated")
        #expect((removed["lines"] as? [String])?.contains("removed the local CA: its key and root certificate are deleted") == true)
        #expect(try HistoryCommandSupport.pythonJSON(P.command(["ca", "show", "--json"] + d))["status"] as? String == "notCreated")
        // Remake over none: 409 with the question's sentence (the command asks for --yes before it gets there).
        let noRemake = await P.ask(api, "POST", "/api/ca/remake")
        #expect(noRemake.status == .conflict)
        #expect(try Self.json(noRemake)["error"] as? String == "there is no local CA to remake; 'tunnelvision ca create' makes one")
    }

    @Test("root.pem and root.der are the root certificate openssl reads with the same fingerprint; never the key; 404 with no CA")
    func downloads() async throws {
        let data = TemporaryDirectory("tv-webca")
        let api = P.api(data.url), d = ["--data-dir", data.url.path]
        try P.expectSameError(await P.ask(api, "GET", "/api/ca/root.pem"), status: .notFound,
                              ["ca", "export", data.url.appendingPathComponent("none.pem").path] + d)
        _ = try P.command(["ca", "create"] + d)
        let pem = await P.ask(api, "GET", "/api/ca/root.pem"), der = await P.ask(api, "GET", "/api/ca/root.der")
        #expect(pem.status == .ok && der.status == .ok)
        #expect(pem.headers["Content-Disposition"] == "attachment; filename=\"tunnelvision-root-ca.pem\"")
        #expect(der.headers["Content-Disposition"] == "attachment; filename=\"tunnelvision-root-ca.der\"")
        #expect(pem.headers["Content-Type"] == "application/x-pem-file" && der.headers["Content-Type"] == "application/pkix-cert")
        let folder = TemporaryDirectory("tv-webca-out")
        let pemFile = folder.url.appendingPathComponent("got.pem"), derFile = folder.url.appendingPathComponent("got.der")
        try Data(P.bytes(pem)).write(to: pemFile)
        try Data(P.bytes(der)).write(to: derFile)
        #expect(P.bytes(pem) == [UInt8](try Data(contentsOf: DataDirectoryLayout.caCertificate(in: data.url))))
        #expect(!P.text(pem).contains("PRIVATE KEY"))
        let expected = try Self.openssl(["x509", "-in", DataDirectoryLayout.caCertificate(in: data.url).path, "-noout", "-fingerprint", "-sha256"])
        #expect(try Self.openssl(["x509", "-in", pemFile.path, "-noout", "-fingerprint", "-sha256"]) == expected)
        #expect(try Self.openssl(["x509", "-inform", "DER", "-in", derFile.path, "-noout", "-fingerprint", "-sha256"]) == expected)
    }

    @Test("a corrupt key: the state says unreadable with the command's problem, Create is refused 409 and not offered")
    func corrupt() async throws {
        let data = TemporaryDirectory("tv-webca")
        let api = P.api(data.url), d = ["--data-dir", data.url.path]
        _ = try P.command(["ca", "create"] + d)
        try Data("not a key\n".utf8).write(to: DataDirectoryLayout.caKey(in: data.url))
        let shown = await P.ask(api, "GET", "/api/ca")
        #expect(try P.text(shown) == P.command(["ca", "show", "--json"] + d, status: 1))
        let state = try Self.json(shown)
        #expect(state["status"] as? String == "unreadable" && state["canCreate"] as? Bool == false)
        #expect((state["setup"] as? [String: Any])?["actions"] as? [String] == ["remove"])
        let key = try Data(contentsOf: DataDirectoryLayout.caKey(in: data.url))
        try P.expectSameError(await P.ask(api, "POST", "/api/ca/create"), status: .conflict, ["ca", "create"] + d)
        #expect(try Data(contentsOf: DataDirectoryLayout.caKey(in: data.url)) == key, "a refused create touched the key")
    }
}
