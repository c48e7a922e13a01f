import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// TLS inspection as a person uses it: their CA (`ca create`), `run --inspect` around real curl,
/// a real nginx upstream with its own lab PKI. What is asserted is what curl got, what the
/// history and `stats` say, and what tshark decrypts with the key log. Needs root.
@Suite("TLS inspection end to end", .serialized)
struct InspectionEndToEndTests {
    func secureFlows(_ lab: InspectionLab) throws -> [[String: Any]] {
        try lab.flows().filter { flow in
            (flow["peers"] as? [[String: Any]])?.contains { $0["port"] as? Int == 443 } == true
        }.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
    }

    @Test("curl through run --inspect gets every byte over HTTP/2 and HTTP/1.1, and the flows are inspected")
    func inspectedBothProtocols() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let h2 = lab.file("h2.bin"), h1 = lab.file("h1.json"), stats = lab.file("stats.json"), diagnostics = lab.file("diagnostics.json")
        let curl = (["curl", "-sS", "--max-time", "30"] + lab.resolve).joined(separator: " ")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root], script: """
            \(curl) --http2 -o \(h2.path) -w '%{http_version}\\n' \(lab.url)/file.bin && \
            \(curl) --http1.1 -o \(h1.path) -w '%{http_version}\\n' \(lab.url)/api.json && \
            \(tunnelvision) stats --json --data-dir \(lab.data.path) > \(stats.path) && \
            \(tunnelvision) diagnostics --json --data-dir \(lab.data.path) > \(diagnostics.path)
            """)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.split(separator: "\n") == ["2", "1.1"])
        // The diagnostics' verdict, asked of the live tunnel: inspection works.
        let diagnosed = try JSONSerialization.jsonObject(with: Data(contentsOf: diagnostics)) as? [String: Any]
        #expect((diagnosed?["headline"] as? [String: Any])?["verdict"] as? String == "working", "\(String(describing: diagnosed?["headline"]))")
        #expect(try Data(contentsOf: h2) == lab.body)
        #expect(try String(contentsOf: h1, encoding: .utf8) == InspectionLab.json)

        let flows = try secureFlows(lab)
        #expect(flows.count == 2)
        #expect(flows.allSatisfy { $0["tlsStatus"] as? String == "inspected" })
        let inspection = try InspectionLab.inspectionCounters(in: stats)
        #expect(inspection?["flowsInspected"] as? Int == 2)
        #expect(inspection?["terminationsOpened"] as? Int == 2)
    }

    @Test("a client that trusts only the real CA refuses our leaf: not inspectable, remembered, and its next connection works untouched")
    func pinningIsNeverForced() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let out = lab.file("second.json"), stats = lab.file("stats.json")
        // Trusting only the lab's root: its file and no directory (curl would also read the
        // command's /etc/ssl/certs, where run --inspect put the local root).
        let curl = (["curl", "-sS", "--max-time", "30", "--cacert", lab.pki.root, "--capath", lab.emptyDirectory.path]
                    + lab.resolve).joined(separator: " ")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root], script: """
            \(curl) -o /dev/null \(lab.url)/api.json; echo "first=$?"; \
            \(curl) -o \(out.path) \(lab.url)/api.json; echo "second=$?"; \
            \(tunnelvision) stats --json --data-dir \(lab.data.path) > \(stats.path)
            """)
        #expect(result.status == 0, "\(result.err)")
        // The first connection ends as the client chose: it refused our leaf (curl's 60).
        #expect(result.out.contains("first=60"), "\(result.out)")
        #expect(result.out.contains("second=0"), "\(result.out)")
        #expect(try String(contentsOf: out, encoding: .utf8) == InspectionLab.json)

        let flows = try secureFlows(lab)
        #expect(flows.count == 2)
        #expect(flows.allSatisfy { $0["tlsStatus"] as? String == "notInspectable" })
        let inspection = try InspectionLab.inspectionCounters(in: stats)
        #expect(inspection?["terminationsOpened"] as? Int == 1)          // the second: zero attempts
        #expect(inspection?["flowsPinned"] as? Int == 1)
        #expect(inspection?["pinnedHostSkips"] as? Int == 1)
    }

    @Test("curl with --pinnedpubkey judges the key after finishing its handshake: it closes, is never forced, and is no refusal")
    func pinnedPublicKey() async throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let leaf = lab.pki.chain(for: InspectionLab.host).replacingOccurrences(of: ".chain.pem", with: ".pem")
        let pin = try ExternalCommand.run(["sh", "-c", "openssl x509 -in \(leaf) -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let curl = (["curl", "-sS", "--max-time", "30", "-o", "/dev/null"] + lab.resolve).joined(separator: " ")
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root], script: """
            \(curl) --pinnedpubkey sha256//\(pin) \(lab.url)/api.json; echo "pinning=$?"; \
            \(curl) \(lab.url)/api.json; echo "not-pinning=$?"; \
            \(curl) --pinnedpubkey sha256//\(pin) \(lab.url)/api.json; echo "pinning-again=$?"
            """)
        // CURLE_SSL_PINNEDPUBKEYNOTMATCH, each time: curl refuses on its own, and nothing forces it.
        #expect(result.out.contains("pinning=90"), "\(result.out) \(result.err)")
        #expect(result.out.contains("pinning-again=90"), "\(result.out) \(result.err)")
        // Only evidence of refusal counts: curl finished its handshake with our leaf before it
        // compared the key, so the host is not held against later connections — the one pinning
        // nothing is inspected and works.
        #expect(result.out.contains("not-pinning=0"), "\(result.out)")
        let flows = try await lab.storedFlows(port: 443)
        #expect(flows.map(\.tlsStatus) == [.inspected, .inspected, .inspected], "\(flows)")
    }

    @Test("an upstream the tunnel cannot verify steps aside: curl judges the real certificate itself, and the flow says why")
    func untrustedUpstreamStepsAside() async throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let curl = (["curl", "-sS", "--max-time", "30", "-o", "/dev/null"] + lab.resolve).joined(separator: " ")
        // No --upstream-ca: the lab's root is nobody's, so the system's store refuses the server,
        // and so does curl on its own; a curl told to trust the lab's root gets through, untouched.
        let result = try lab.run(["--inspect"], script: """
            \(curl) \(lab.url)/api.json; echo "default=$?"; \
            \(curl) --cacert \(lab.pki.root) \(lab.url)/api.json; echo "trusting=$?"
            """)
        #expect(result.out.contains("default=60"), "\(result.out)")     // curl's own verdict on the real chain
        #expect(result.out.contains("trusting=0"), "\(result.out)")
        let flows = try await lab.storedFlows(port: 443)
        #expect(flows.map(\.tlsStatus) == [.encrypted, .encrypted], "\(flows)")
        // OpenSSL's words for a chain that ends in a root the trust store does not hold; the
        // second connection was not attempted: the host is remembered with its reason.
        let reason = InspectionReason(.upstreamVerificationFailed, detail: "self-signed certificate in certificate chain")
        #expect(flows.map(\.inspectionReason) == [reason, reason], "\(flows)")
    }

    @Test("settings set tls-inspection off reaches the running tunnel at once: its next connection is left encrypted, and it says so")
    func switchedOffLive() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let said = lab.file("said.txt")
        let curl = (["curl", "-sS", "--max-time", "30", "-o", "/dev/null", "--cacert", lab.pki.root] + lab.resolve).joined(separator: " ")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        // The first curl trusts the lab root alone, so it runs after inspection is off; the
        // connection before it goes through the command's bundle and is inspected.
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root], script: """
            curl -sS --max-time 30 -o /dev/null \(lab.resolve.joined(separator: " ")) \(lab.url)/api.json && \
            \(tunnelvision) settings set tls-inspection off --data-dir \(lab.data.path) 2> \(said.path) && \
            \(curl) \(lab.url)/api.json
            """)
        #expect(result.status == 0, "\(result.err)")
        #expect(try String(contentsOf: said, encoding: .utf8).contains("the running tunnel applied it at once"))
        let flows = try secureFlows(lab)
        #expect(flows.map { $0["tlsStatus"] as? String } == ["inspected", "encrypted"], "\(flows)")
    }

    @Test("with inspection off, port 443 is untouched: curl sees the real server's certificate")
    func offIsUntouched() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let curl = (["curl", "-sS", "--max-time", "30", "--cacert", lab.pki.root, "--capath", lab.emptyDirectory.path]
                    + lab.resolve).joined(separator: " ")
        let result = try lab.run([], script: "\(curl) -o /dev/null \(lab.url)/api.json")
        #expect(result.status == 0, "\(result.err)")
        #expect(try secureFlows(lab).allSatisfy { $0["tlsStatus"] as? String == "encrypted" })
    }

    @Test("with keeping content on, flow ID shows the decrypted requests and responses of HTTP/1.1 and HTTP/2, JSON bodies laid out")
    func decryptedContentKept() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let set = try InspectionLab.tunnelvision(["settings", "set", "plaintext-persistence", "on", "--data-dir", lab.data.path])
        #expect(set.status == 0, "\(set.err)")
        let curl = (["curl", "-sS", "--max-time", "30", "--http1.1"] + lab.resolve).joined(separator: " ")
        // Then a client that trusts the lab's root alone refuses the run's certificate: the browser
        // script finds it in the Timeline as kept private, and says why.
        let refusing = (["curl", "-sS", "--max-time", "30", "-o", "/dev/null", "--cacert", lab.pki.root, "--capath",
                         lab.emptyDirectory.path] + lab.resolve).joined(separator: " ")
        // Three requests on one HTTP/2 connection to the real nginx: streams 1, 3 and 5, the last
        // answered gzip-coded (curl --compressed asks for it).
        let http2 = (["curl", "-sS", "--max-time", "30", "--http2", "--compressed"] + lab.resolve).joined(separator: " ")
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root], script: """
            \(curl) -o /dev/null \(lab.url)/api.json && \
            \(http2) -o /dev/null -o /dev/null -o /dev/null \(lab.url)/api.json '\(lab.url)/api.json?second' \(lab.url)/gzip/api.json && \
            { \(refusing) \(lab.url)/api.json; true; }
            """)
        #expect(result.status == 0, "\(result.err)")
        #expect(try secureFlows(lab).map { $0["tlsStatus"] as? String } == ["inspected", "inspected", "notInspectable"])
        let files = try FileManager.default.contentsOfDirectory(atPath: lab.data.appendingPathComponent("plaintext").path)
        #expect(files.contains { $0.hasSuffix(".tvpt") }, "\(files)")
        let id = try #require(try secureFlows(lab).first?["id"] as? Int)
        let text = try InspectionLab.tunnelvision(["flow", "\(id)", "--data-dir", lab.data.path]).out
        #expect(text.contains("GET /api.json HTTP/1.1"), "\(text)")
        #expect(text.contains("\"nested\""), "\(text)")
        let shown = try lab.flow(id)
        #expect(shown["decrypted"] != nil, "\(shown.keys.sorted())")

        // HTTP/2: each stream's headers decoded from HPACK, its JSON body laid out as HTTP/1.1's.
        let http2ID = try #require(try secureFlows(lab)[1]["id"] as? Int)
        let http2Text = try InspectionLab.tunnelvision(["flow", "\(http2ID)", "--data-dir", lab.data.path]).out
        #expect(http2Text.contains("Request 1 (stream 1): GET /api.json HTTP/2"), "\(http2Text)")
        #expect(http2Text.contains("Request 2 (stream 3): GET /api.json?second HTTP/2"), "\(http2Text)")
        let decrypted = try #require(try lab.flow(http2ID)["decrypted"] as? [String: Any])
        #expect(decrypted["protocol"] as? String == "HTTP/2")
        let exchanges = try #require(decrypted["http"] as? [[String: Any]])
        #expect(exchanges.map { $0["stream"] as? Int } == [1, 3, 5])
        for exchange in exchanges {
            let response = try #require(exchange["response"] as? [String: Any])
            #expect(response["status"] as? Int == 200 && response["version"] as? String == "HTTP/2")
            let body = try #require(response["body"] as? [String: Any])
            #expect(body["kind"] as? String == "json" && body["complete"] as? Bool == true, "\(body)")
            #expect((body["text"] as? String)?.contains("\"nested\"") == true)
        }
        // nginx's gzip, decoded by zlib for display, both sizes said.
        let coded = try #require((exchanges.last?["response"] as? [String: Any])?["body"] as? [String: Any])
        #expect(coded["encoding"] as? String == "gzip" && coded["decoding"] as? String == "whole", "\(coded)")
        #expect(coded["decodedBytes"] as? Int == InspectionLab.json.utf8.count)
        #expect((coded["summary"] as? String)?.contains(", gzip, decoded to \(InspectionLab.json.utf8.count) bytes, JSON") == true, "\(coded)")

        // HAR 1.2 of the inspected connections, as haralyzer (PyPI) reads it: one entry per request,
        // HTTP/1.1's and HTTP/2's, each as `flow ID --json` shows it.
        let har = lab.file("requests.har")
        let exported = try InspectionLab.tunnelvision(["export", "--har", "-o", har.path, "--data-dir", lab.data.path])
        #expect(exported.status == 0 && exported.out.hasPrefix("exported 4 requests of 2 inspected connections as HAR"), "\(exported.out)\(exported.err)")
        let reader = """
            import json, sys
            from haralyzer import HarParser
            parser = HarParser(json.load(open(sys.argv[1])))
            print(json.dumps([[e["request"]["method"], e["request"]["url"], e["request"]["httpVersion"], e["response"]["status"],
                               e["response"]["content"].get("text", "")] for e in parser.har_data["entries"]]))
            """
        let read = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", reader, har.path])
        #expect(read.status == 0, "\(read.err)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(read.out.utf8)) as? [[Any]])
        let host = try #require(URL(string: lab.url)?.host)
        // Newest connection first: HTTP/2's three streams, then HTTP/1.1's request.
        #expect(entries.map { $0[1] as? String } == ["https://\(host)/api.json", "https://\(host)/api.json?second",
                                                    "https://\(host)/gzip/api.json", "https://\(host)/api.json"], "\(entries)")
        #expect(entries.map { $0[2] as? String } == ["HTTP/2.0", "HTTP/2.0", "HTTP/2.0", "HTTP/1.1"], "\(entries)")
        #expect(entries.allSatisfy { $0[0] as? String == "GET" && $0[3] as? Int == 200 && $0[4] as? String == InspectionLab.json })

        // The web app draws the same request and response, in headless Chromium: the script
        // compares its Flow Inspector with `flow ID --json` over this data directory.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Browser/run_decrypted_tests.py").standardized
        let python = URL(fileURLWithPath: ExternalCommand.locate("python3") ?? "/usr/bin/python3")
        // Its screenshots are kept in the build folder (browser-artifacts/decrypted), to be looked at.
        let binary = try BuiltProduct.url("tunnelvision")
        let artifacts = binary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("browser-artifacts/decrypted")
        let browser = try BuiltProduct.run(python, [script.path, "--binary", binary.path,
                                                    "--data-dir", lab.data.path, "--artifacts", artifacts.path])
        #expect(browser.status == 0, "\(browser.out)\n\(browser.err)")
    }

    @Test("a large first response leaves the requests after it on the connection theirs, over HTTP/1.1 and HTTP/2, each cut body's true length said")
    func budgetServesEveryRequest() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let set = try InspectionLab.tunnelvision(["settings", "set", "plaintext-persistence", "on", "--data-dir", lab.data.path])
        #expect(set.status == 0, "\(set.err)")
        // 300 000 bytes then the JSON, each pair on one connection to the real nginx.
        let curl = { (version: String) in (["curl", "-sS", "--max-time", "30", version, "-o", "/dev/null", "-o", "/dev/null"] + lab.resolve).joined(separator: " ") }
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root], script: """
            \(curl("--http1.1")) \(lab.url)/file.bin \(lab.url)/api.json && \(curl("--http2")) \(lab.url)/file.bin \(lab.url)/api.json
            """)
        #expect(result.status == 0, "\(result.err)")
        let flows = try secureFlows(lab)
        #expect(flows.map { $0["tlsStatus"] as? String } == ["inspected", "inspected"])
        #expect(lab.body.count == 300_000)
        let total = "300 000"
        for (flow, version) in zip(flows, ["HTTP/1.1", "HTTP/2"]) {
            let id = try #require(flow["id"] as? Int)
            let decrypted = try #require(try lab.flow(id)["decrypted"] as? [String: Any])
            #expect(decrypted["protocol"] as? String == version)
            let exchanges = try #require(decrypted["http"] as? [[String: Any]])
            #expect(exchanges.count == 2, "\(version): \(exchanges)")
            let big = try #require((exchanges.first?["response"] as? [String: Any])?["body"] as? [String: Any])
            #expect(big["complete"] as? Bool == false, "\(version): \(big)")
            #expect((big["summary"] as? String)?.contains(" bytes kept of \(total) — the rest was not kept") == true, "\(version): \(big)")
            // The answer after it was kept whole: before, "none was kept".
            let small = try #require((exchanges.last?["response"] as? [String: Any])?["body"] as? [String: Any])
            #expect(small["complete"] as? Bool == true && (small["text"] as? String)?.contains("\"nested\"") == true, "\(version): \(small)")
        }
        // Each request's head is searchable (http:), HTTP/2's decoded from HPACK: both
        // connections asked for /file.bin, with curl's user agent; none asked for /nothing.
        let searched = { (query: String) throws -> [Int] in
            let out = try InspectionLab.tunnelvision(["flows", "--search", query, "--json", "--data-dir", lab.data.path])
            #expect(out.status == 0, "\(out.err)")
            let flows = (try JSONSerialization.jsonObject(with: Data(out.out.utf8)) as? [String: Any])?["flows"] as? [[String: Any]]
            return (flows ?? []).compactMap { $0["id"] as? Int }.sorted()
        }
        let ids = flows.compactMap { $0["id"] as? Int }.sorted()
        #expect(try searched("http:/file.bin") == ids)
        #expect(try searched("http:\"user-agent: curl/\" http:/api.json") == ids)
        #expect(try searched("http:/nothing").isEmpty)
    }

    @Test("the key log lets tshark decrypt the tunnel's own capture of an inspected flow")
    func keyLogDecryptsTheCapture() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let keylog = lab.file("keys.log"), summary = lab.file("summary.json")
        let curl = (["curl", "-sS", "--max-time", "30", "--http1.1"] + lab.resolve).joined(separator: " ")
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root, "--keylog", keylog.path,
                                  "--json-summary", summary.path], script: "\(curl) -o /dev/null \(lab.url)/api.json")
        #expect(result.status == 0, "\(result.err)")
        let attributes = try FileManager.default.attributesOfItem(atPath: keylog.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as? [String: Any]
        let captures = try #require(document?["captureFiles"] as? [[String: Any]])
        let capture = URL(fileURLWithPath: try #require(captures.first?["path"] as? String))
        let uris = try Tshark.fields(["http.request.uri"], of: capture,
                                     options: ["-o", "tls.keylog_file:\(keylog.path)", "-Y", "http.request"])
        #expect(uris.contains { $0["http.request.uri"] == ["/api.json"] }, "\(uris)")
        // Keeping content is off by default, even with inspection on: no .tvpt file, not even the folder.
        #expect(!FileManager.default.fileExists(atPath: lab.data.appendingPathComponent("plaintext").path))
    }
}
