import App
import Foundation
import Shared
import TestSupport
import Testing

/// `tunnelvision flows`, the built binary over a history filled through the real store.
@Suite(.serialized) struct FlowsCommandTests {
    typealias H = HistoryFixtures
    typealias C = HistoryCommandSupport

    static func history(count: Int) async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("tv-flows")
        let store = try H.store(in: directory)
        try await H.fill(store, count: count, packetsEach: 2)
        await store.close()
        return directory
    }

    @Test("pages newest first; the footer's command shows the next page, until nothing older remains")
    func pagingThroughTheFooter() async throws {
        let directory = try await Self.history(count: 25)
        var arguments = ["flows", "--data-dir", directory.url.path, "--limit", "10"]
        var ids: [Int] = []
        for page in 0..<3 {
            let result = try C.run(arguments)
            #expect(result.status == 0, "\(result.err)")
            let lines = result.out.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines[0].hasPrefix("ID") && lines[0].contains("RECEIVED") && lines[0].contains("ENCRYPTION"))
            let rows = lines.dropFirst().prefix { !$0.isEmpty }
            ids += rows.compactMap { Int($0.split(separator: " ").first ?? "") }
            let footer = try #require(lines.last)
            if page < 2 {
                #expect(footer.hasPrefix("10 connections shown (scanned 10); more remain — next page: tunnelvision flows"))
                let command = try #require(footer.components(separatedBy: "next page: ").last)
                arguments = Array(C.words(command).dropFirst())
            } else {
                #expect(footer == "5 connections shown (scanned 5); nothing older remains")
            }
        }
        #expect(ids.count == 25 && Set(ids).count == 25 && ids == ids.sorted(by: >))
        // A TCP row names its host by SNI, a UDP one by its address.
        let first = try C.run(["flows", "--data-dir", directory.url.path, "--limit", "4"])
        #expect(first.out.contains("host-24.example (sni)") && first.out.contains("198.18.0.21"))
        #expect(first.out.contains("encrypted") && first.out.contains("not encrypted"))
    }

    @Test("--json parses with Python: every field, the split ends, the cursor and the filter")
    func jsonDocument() async throws {
        let directory = try await Self.history(count: 30)
        let result = try C.run(["flows", "--data-dir", directory.url.path, "--json", "--protocol", "udp", "--limit", "2"])
        #expect(result.status == 0, "\(result.err)")
        let document = try C.pythonJSON(result.out)
        let flows = try #require(document["flows"] as? [[String: Any]])
        #expect(flows.count == 2 && document["hasMore"] as? Bool == true && document["scanned"] as? Int == 9)
        #expect(document["keptLooking"] as? Bool == false && document["historyEmpty"] as? Bool == false)
        let flow = flows[0]   // connection 28, UDP
        #expect(flow["protocol"] as? String == "udp" && flow["tlsStatus"] as? String == "plaintext")
        #expect((flow["remote"] as? [String: Any])?["address"] as? String == "198.18.0.28")
        #expect((flow["local"] as? [String: Any])?["port"] as? Int == 20_028)
        #expect((flow["peers"] as? [[String: Any]])?.count == 2)
        #expect(flow["communityID"] as? String
                == (try CommunityIDOracle.id(.init(proto: 17, source: "198.18.0.2", destination: "198.18.0.28", ports: (20_028, 443)))))
        #expect(flow["name"] is NSNull && flow["nameSource"] is NSNull && (flow["otherNames"] as? [Any])?.isEmpty == true)
        #expect(flow["firstSeen"] as? String == "2026-11-30T02:00:27.500000Z" && flow["lastSeen"] as? String == "2026-11-30T02:00:28.000000Z")
        #expect(flow["packets"] as? Int == 2 && flow["bytesIn"] as? Int == 0)
        let filter = try #require(document["filter"] as? [String: Any])
        #expect(filter["protocols"] as? [String] == ["udp"] && filter["search"] is NSNull)
        let next = try #require(document["next"] as? String)
        let more = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--protocol", "udp",
                                               "--limit", "2", "--after", next]).out)
        #expect((more["flows"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }.allSatisfy { $0 < flow["id"] as! Int } == true)
        let named = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--search", "HOST-29"]).out)
        let hit = try #require((named["flows"] as? [[String: Any]])?.first)
        #expect(hit["name"] as? String == "host-29.example" && hit["nameSource"] as? String == "sni")
    }

    @Test("a selective filter that spends its queries says it kept looking, and how to look further")
    func keptLooking() async throws {
        let directory = try await Self.history(count: 1_000)
        let result = try C.run(["flows", "--data-dir", directory.url.path, "--search", "host-3.example", "--limit", "10"])
        #expect(result.status == 0, "\(result.err)")
        let footer = try #require(result.out.split(separator: "\n").last.map(String.init))
        #expect(footer.hasPrefix("kept looking: scanned 80 connections, found 0; more may match further back — run: "
                                 + "tunnelvision flows --data-dir \(directory.url.path) --search host-3.example --limit 10 --after "))
        // Following it far enough finds the one connection.
        var arguments = Array(C.words(try #require(footer.components(separatedBy: "run: ").last)).dropFirst())
        var found = ""
        for _ in 0..<20 {
            let page = try C.run(arguments)
            if page.out.contains("host-3.example (sni)") { found = page.out; break }
            guard let command = page.out.split(separator: "\n").last?.components(separatedBy: "run: ").last else { break }
            arguments = Array(C.words(command).dropFirst())
        }
        #expect(found.contains("host-3.example (sni)"))
    }

    @Test("an empty history teaches how to record; no matches says how to clear the filter")
    func emptyAndNoMatches() async throws {
        let empty = TemporaryDirectory("tv-flows")
        try await H.store(in: empty).close()
        let none = try C.run(["flows", "--data-dir", empty.url.path])
        #expect(none.status == 0 && none.out == "no connections recorded yet: 'sudo tunnelvision run -- CMD' records every connection CMD makes\n")
        #expect(try C.pythonJSON(try C.run(["flows", "--data-dir", empty.url.path, "--json"]).out)["historyEmpty"] as? Bool == true)
        let directory = try await Self.history(count: 5)
        // The status is narrowed by the store: none is read, and none is said to be there at all.
        let miss = try C.run(["flows", "--data-dir", directory.url.path, "--status", "inspected"])
        #expect(miss.status == 0 && miss.out.hasPrefix("no connections match (none in the history); run 'tunnelvision flows' without"))
        let searched = try C.run(["flows", "--data-dir", directory.url.path, "--search", "no-such-host"])
        #expect(searched.status == 0 && searched.out.hasPrefix("no connections match (scanned 5, none older remain); run"))
    }

    @Test("--search reads the query language: keys, lists, ranges, addresses, blocks, negation; the next page repeats it")
    func searchQueries() async throws {
        let directory = try await Self.history(count: 25)   // n: host-n.example:443 from port 20 000 + n; UDP (unnamed) n % 7 == 0
        func found(_ search: String) throws -> [Int] {
            let result = try C.run(["flows", "--data-dir", directory.url.path, "--json", "--search", search])
            #expect(result.status == 0, "\(search): \(result.err)")
            let flows = try C.pythonJSON(result.out)["flows"] as? [[String: Any]] ?? []
            // n from the device's port (20 000 + n; the other end's is 443), whether or not the ends were told apart.
            return flows.map { (($0["peers"] as? [[String: Any]]) ?? []).compactMap { $0["port"] as? Int }.max() ?? 0 }.map { $0 - 20_000 }
        }
        let expected: [(String, [Int])] = [
            ("proto:udp", [21, 14, 7, 0]),
            ("198.18.0.1", [1]),                                 // an address: exact…
            ("host:198.18.0.1", [19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 1]),   // host: a substring of the names
            ("198.18.0.2", Array((0..<25).reversed())),          // …at either end: the device is 198.18.0.2
            ("198.18.0.8/29", [15, 14, 13, 12, 11, 10, 9, 8]),
            ("port:20003-20005,20010", [10, 5, 4, 3]),
            ("-host:example", [21, 14, 7, 0]),
            ("HOST-2 PORT:443 -198.18.0.22", [24, 23, 20, 2]),
            ("\"host-2 \"", []),
        ]
        for (search, wanted) in expected {
            let numbers = try found(search)
            #expect(numbers == wanted, "\(search)")
        }
        // The footer's next page carries the query, quoted for the shell, and reads the same.
        let paged = try C.run(["flows", "--data-dir", directory.url.path, "--search", "proto:tcp -port:20024", "--limit", "3"])
        let footer = try #require(paged.out.split(separator: "\n").last.map(String.init))
        #expect(footer.contains("--search 'proto:tcp -port:20024' --limit 3 --after "), "\(footer)")
        let next = try C.run(Array(C.words(try #require(footer.components(separatedBy: "next page: ").last)).dropFirst()))
        #expect(paged.out.contains("host-20.example (sni)") && !paged.out.contains("host-24.example"))
        #expect(next.status == 0 && next.out.contains("host-19.example (sni)") && !next.out.contains("host-20.example"))
    }

    @Test("a malformed --search is a usage error: exit status 2 and the one sentence naming the term")
    func malformedSearch() async throws {
        let directory = try await Self.history(count: 5)
        let cases = [
            ("host-2 port:abc", "flows: --search: 'abc' in 'port:abc' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"),
            ("foo:bar", "flows: --search: 'foo:bar' has an unknown key 'foo': give host:, port:, proto:, status:, program:, http:, ja4:, ja3: or ja3s:, "
                + "or write an IPv6 address whole (fd00::1)"),
            ("\"host-2", "flows: --search: '\"host-2' opens a quote it does not close: end the phrase with another \""),
            ("198.18.0.0/40", "flows: --search: '/40' in '198.18.0.0/40' is not a prefix length: give 0 to 32 after an IPv4 address"),
        ]
        for (search, sentence) in cases {
            let result = try C.run(["flows", "--data-dir", directory.url.path, "--search", search])
            #expect(result.status == 2 && result.out.isEmpty, "\(search)")
            #expect(result.err.split(separator: "\n").first.map(String.init) == "tunnelvision: " + sentence, "\(result.err)")
        }
    }

    @Test("bad input: an unknown cursor, a malformed one, a bad --since, each a clear refusal")
    func badInput() async throws {
        let directory = try await Self.history(count: 5)
        let unknown = try C.run(["flows", "--data-dir", directory.url.path, "--after", "1796004000000000000-999"])
        #expect(unknown.status == 1 && unknown.out.isEmpty)
        #expect(unknown.err.contains("names connection 999, which is not in the history") && unknown.err.contains("without --after"))
        let malformed = try C.run(["flows", "--data-dir", directory.url.path, "--after", "page2"])
        #expect(malformed.status == 2 && malformed.err.contains("--after 'page2' is not a cursor"))
        let since = try C.run(["flows", "--data-dir", directory.url.path, "--since", "last tuesday"])
        #expect(since.status == 2 && since.err.contains("--since 'last tuesday' is not a time: give an ISO-8601 UTC instant"))
        let window = try C.run(["flows", "--data-dir", directory.url.path, "--since", "2026-11-30T02:00:02Z",
                                "--until", "2026-11-30T02:00:03.2Z", "--json"])
        let ids = (try C.pythonJSON(window.out)["flows"] as? [[String: Any]])?.count
        #expect(window.status == 0 && ids == 2)   // connections 2 and 3 ([1.5, 2] and [2.5, 3])
        #expect(try C.run(["flows", "--protocol", "sctp"]).status == 2)
    }

    @Test("a history that is not SQLite is refused with what to do, exit 1, the file untouched")
    func aHistoryThatWillNotOpen() throws {
        let directory = TemporaryDirectory("tv-flows")
        let database = DataDirectoryLayout.database(in: directory.url)
        let garbage = Data(repeating: 0x41, count: 8_192)
        try garbage.write(to: database)
        for command in [["flows"], ["activity"]] {
            let result = try C.run(command + ["--data-dir", directory.url.path])
            #expect(result.status == 1 && result.out.isEmpty, "\(command)")
            #expect(result.err.hasPrefix("tunnelvision: ") && result.err.contains(database.path), "\(result.err)")
        }
        #expect(try Data(contentsOf: database) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [database.lastPathComponent])
    }
}

/// Inspection's statuses and reasons through `flows`: the status of a connection inspection broke,
/// the filter by reason, and the reason in the JSON, over a real store.
@Suite(.serialized) struct FlowsInspectionReasonTests {
    typealias H = HistoryFixtures
    typealias C = HistoryCommandSupport

    static let reasons: [(TLSInspectionStatus, InspectionReason?)] = [
        (.inspected, nil),
        (.encrypted, InspectionReason(.clientTLSPolicy, detail: "the server refused what the client offers: alert 70 (protocol_version)")),
        (.notInspectable, InspectionReason(.refusedCertificate, detail: "the client refused the run's certificate with alert 48 (unknown_ca)")),
        (.inspectionFailed, InspectionReason(.upstreamFailed, detail: "the server ended the connection with alert 20 (bad_record_mac)")),
        (.encrypted, InspectionReason(.quic)),
    ]

    /// What the app and the tunnel's leaf negotiated on the inspected flow, and how its server ended.
    static let leaf = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301), fromHelloRetryRequest: false,
                                    source: .tunnelLeaf)

    /// The flows of `reasons`, oldest first, then `plain` ordinary encrypted ones newer than all of them.
    static func history(plain: Int = 0) async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("tv-flows-reasons")
        let store = try H.store(in: directory)
        var flows = reasons.enumerated().map { index, pair in
            var record = H.record(H.key(index), first: Double(index), last: Double(index) + 0.5, status: pair.0,
                                  sni: "host-\(index).example")
            record.inspectionReason = pair.1
            if pair.0 == .inspected {
                record.leafTLS = leaf
                record.serverEnding = .withoutCloseNotify
            }
            return record
        }
        flows += (0..<plain).map { H.record(H.key(100 + $0), first: Double(10 + $0), last: Double(10 + $0) + 0.5, sni: "plain-\($0).example") }
        try await store.write(FlowStoreBatch(flows: flows, packets: []))
        await store.close()
        return directory
    }

    @Test("--status inspectionFailed finds the connection inspection broke, and --reason finds each by why")
    func filters() async throws {
        let directory = try await Self.history()
        let broken = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--status", "inspectionFailed"]).out)
        let brokenFlows = try #require(broken["flows"] as? [[String: Any]])
        #expect(brokenFlows.map { $0["name"] as? String } == ["host-3.example"])
        #expect(brokenFlows.first?["inspectionReason"] as? String == "upstreamFailed")
        #expect(brokenFlows.first?["inspectionDetail"] as? String == "the server ended the connection with alert 20 (bad_record_mac)")
        #expect((brokenFlows.first?["inspectionSentence"] as? String)?.hasPrefix("broken by inspection") == true)

        let byReason = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--reason", "quic,clientTLSPolicy"]).out)
        let named = try #require(byReason["flows"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(named == ["host-4.example", "host-1.example"])
        #expect((byReason["filter"] as? [String: Any])?["reasons"] as? [String] == ["quic", "clientTLSPolicy"])
        let inspected = try #require(try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--status",
                                                                   "inspected"]).out)["flows"] as? [[String: Any]])
        #expect(inspected.first?["inspectionReason"] is NSNull)
    }

    @Test("the store narrows by status and reason: one far behind more pages than a load reads is found at once, and paging goes on narrowed")
    func narrowedInTheStore() async throws {
        // 40 newer ordinary flows and --limit 2: a load reads at most 8 batches of 2 rows, far short of the broken one.
        let directory = try await Self.history(plain: 40)
        let broken = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--limit", "2",
                                                 "--status", "inspectionFailed"]).out)
        #expect((broken["flows"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["host-3.example"])
        #expect(broken["keptLooking"] as? Bool == false && broken["hasMore"] as? Bool == false)
        let first = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--limit", "1",
                                                "--reason", "clientTLSPolicy,quic,refusedCertificate"]).out)
        #expect((first["flows"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["host-4.example"])
        let next = try #require(first["next"] as? String)
        let second = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--limit", "2",
                                                 "--reason", "clientTLSPolicy,quic,refusedCertificate", "--after", next]).out)
        #expect((second["flows"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["host-2.example", "host-1.example"])
        // Status and reason together: both must hold.
        let both = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--status", "encrypted",
                                               "--reason", "refusedCertificate,quic"]).out)
        #expect((both["flows"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["host-4.example"])
    }

    @Test("each flow carries both legs' facts and its reason in words; the listing offers every status and reason in a screen's words")
    func fieldsAndChoices() async throws {
        let directory = try await Self.history()
        let listing = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json"]).out)
        let flows = try #require(listing["flows"] as? [[String: Any]])
        let inspected = try #require(flows.first { $0["name"] as? String == "host-0.example" })
        #expect((inspected["leafTLS"] as? [String: Any])?["version"] as? Int == 0x0304)
        #expect((inspected["leafTLS"] as? [String: Any])?["cipherSuiteName"] as? String == "TLS_AES_128_GCM_SHA256")
        #expect(inspected["serverEnding"] as? String == "withoutCloseNotify")
        #expect(inspected["statusNote"] is NSNull && inspected["inspectionReason"] is NSNull)
        let refused = try #require(flows.first { $0["name"] as? String == "host-2.example" })
        #expect(refused["leafTLS"] is NSNull && refused["serverEnding"] is NSNull)
        #expect((refused["statusNote"] as? String)?.hasPrefix("kept private (the host is left alone for the rest of the run): "
                                                              + "the app refused this run's certificate") == true)
        let choices = try #require(listing["choices"] as? [String: Any])
        let statuses = try #require(choices["statuses"] as? [[String: Any]])
        #expect(statuses.compactMap { $0["id"] as? String } == ["plaintext", "encrypted", "inspected", "notInspectable", "inspectionFailed"])
        #expect(statuses.last?["label"] as? String == "Broken by inspection" && statuses.last?["written"] as? Bool == true)
        #expect(statuses[1]["written"] as? Bool == false)
        #expect((choices["reasons"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == InspectionReasonKind.allCases.map(\.rawValue))

        let text = try C.run(["flows", "--data-dir", directory.url.path]).out
        #expect(text.contains("broken by inspection — server's side failed"))
        #expect(text.contains("encrypted — QUIC (passed through)"))
    }

    @Test("every status and reason is in flows' help, and every field its JSON writes")
    func help() throws {
        let help = try C.run(["help", "flows"]).out
        for word in TLSInspectionStatus.allCases.map(HistoryFlowWording.statusIdentifier) + InspectionReasonKind.allCases.map(\.rawValue) {
            #expect(help.contains(word), "\(word)")
        }
        for field in ["inspectionReason", "inspectionDetail", "leafTLS", "serverEnding", "inspectionSentence", "statusNote", "choices"] {
            #expect(help.contains("\"\(field)\""), "\(field)")
        }
        let flow = try C.run(["help", "flow"]).out
        for field in ["leafTLS", "serverEnding", "inspectionReason", "encryptionLabel", "endingNote", "responseMissing"] {
            #expect(flow.contains("\"\(field)\""), "\(field)")
        }
        let export = try C.run(["help", "export"]).out
        for field in ["inspectionReason", "inspectionDetail", "leafTLS", "serverEnding"] { #expect(export.contains("\"\(field)\""), "\(field)") }
    }

    @Test("an unknown status or reason is refused with every one that exists")
    func unknownWords() async throws {
        let directory = try await Self.history()
        let status = try C.run(["flows", "--data-dir", directory.url.path, "--status", "pinned"])
        #expect(status.status == 2 && status.err.contains("inspectionFailed"))
        let reason = try C.run(["flows", "--data-dir", directory.url.path, "--reason", "pinned"])
        #expect(reason.status == 2 && reason.err.contains("refusedCertificate") && reason.err.contains("clientCertificateRequested"))
    }
}
