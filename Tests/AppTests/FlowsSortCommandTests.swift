import App
import Foundation
import Shared
import TestSupport
import Testing

/// `tunnelvision flows --sort` and `--group`, the built binary over a history with known figures:
/// pages in the order of the whole history through the footer's cursor, and group totals equal to
/// sums made by hand.
@Suite(.serialized) struct FlowsSortCommandTests {
    typealias H = HistoryFixtures
    typealias C = HistoryCommandSupport

    /// 30 connections: bytes received 0, 100, 200, 300 (ties), to five hosts (every third unnamed).
    static func records() -> [FlowRecord] {
        (0..<30).map { number in
            H.record(H.key(number, proto: number % 10 == 9 ? .udp : .tcp), first: Double(number), last: Double(number) + Double(number % 4),
                     sni: number % 3 == 2 ? nil : "host-\(number % 5).example",
                     bytes: (out: UInt64(number % 2) * 10, in: UInt64(number % 4) * 100), packets: UInt64(number % 6))
        }
    }

    static func history() async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("tv-flows-sort")
        let store = try H.store(in: directory)
        try await store.write(FlowStoreBatch(flows: records()))
        await store.close()
        return directory
    }

    @Test("--sort received pages the whole history by bytes received, most first, ties by id, through each page's cursor; --json says the sort")
    func pagesInTheOrderOfTheWholeHistory() async throws {
        let directory = try await Self.history()
        var arguments = ["flows", "--data-dir", directory.url.path, "--json", "--sort", "received", "--limit", "7"]
        var seen: [(id: Int, bytesIn: Int)] = []
        while true {
            let result = try C.run(arguments)
            #expect(result.status == 0, "\(result.err)")
            let document = try C.pythonJSON(result.out)
            let sort = try #require(document["sort"] as? [String: Any])
            #expect(sort["key"] as? String == "received" && sort["descending"] as? Bool == true && sort["word"] as? String == "received:desc")
            #expect(document["programGroups"] == nil)   // the per-page grouping is gone: --group adds up the whole history
            seen += try #require(document["flows"] as? [[String: Any]]).map { ($0["id"] as! Int, $0["bytesIn"] as! Int) }
            guard let next = document["next"] as? String else { break }
            #expect(next.hasPrefix("received:desc:i"))
            arguments = ["flows", "--data-dir", directory.url.path, "--json", "--sort", "received", "--limit", "7", "--after", next]
        }
        #expect(seen.count == 30 && Set(seen.map(\.id)).count == 30)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytesIn > $1.bytesIn || ($0.bytesIn == $1.bytesIn && $0.id > $1.id) })
        // The text says the order, and its footer's command repeats --sort with a cursor of that order.
        let text = try C.run(["flows", "--data-dir", directory.url.path, "--sort", "host:desc", "--limit", "4"])
        #expect(text.out.hasPrefix("sorted by host, Z to A\n"))
        #expect(text.out.contains("--sort host:desc --limit 4 --after host:desc:"))
    }

    @Test("each listed flow's \"after\" goes on just past it, in time order and sorted: the live Timeline drops the rows under one and asks after it")
    func eachFlowsCursorGoesOnJustPastIt() async throws {
        let directory = try await Self.history()
        for sort in [[], ["--sort", "received"]] {
            let whole = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--limit", "30"] + sort).out)
            let flows = try #require(whole["flows"] as? [[String: Any]])
            let ids = flows.map { $0["id"] as! Int }
            #expect(whole["liveRowsKept"] as? Int == HistoryPolicy.liveRowsKept)   // what a screen left open keeps past its loaded rows
            #expect(ids.count == 30)
            // Cut after the 4th, the 17th and the last: the rest of the list follows, none skipped or repeated.
            for index in [3, 16, 29] {
                let after = try #require(flows[index]["after"] as? String)
                let rest = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--json", "--limit", "30", "--after", after] + sort).out)
                let following = try #require(rest["flows"] as? [[String: Any]]).map { $0["id"] as! Int }
                #expect(following == Array(ids[(index + 1)...]), "sort \(sort), after the flow at \(index)")
            }
        }
    }

    @Test("an unknown --sort is a usage error naming every key: exit status 2")
    func unknownSort() async throws {
        let directory = try await Self.history()
        let result = try C.run(["flows", "--data-dir", directory.url.path, "--sort", "bytes"])
        #expect(result.status == 2)
        #expect(result.err.contains("unknown sort 'bytes': give one of time, host, program, port, protocol, status, received, sent, packets, duration"))
    }

    @Test("--group host adds up every connection the filters keep: totals equal hand sums, ranked by bytes, with --json")
    func groupTotals() async throws {
        let directory = try await Self.history()
        let result = try C.run(["flows", "--data-dir", directory.url.path, "--group", "host", "--protocol", "tcp", "--json"])
        #expect(result.status == 0, "\(result.err)")
        let document = try C.pythonJSON(result.out)
        let groups = try #require(document["groups"] as? [[String: Any]])
        var sums: [String: (count: Int, bytesIn: Int, bytesOut: Int, packets: Int)] = [:]
        for record in Self.records() where record.key.proto == .tcp {
            let host = record.sni ?? "\(record.key.endpointB.address)"
            let old = sums[host] ?? (0, 0, 0, 0)
            sums[host] = (old.count + 1, old.bytesIn + Int(record.bytesIn), old.bytesOut + Int(record.bytesOut), old.packets + Int(record.packetCount))
        }
        #expect(document["totalGroups"] as? Int == sums.count && groups.count == sums.count)
        for group in groups {
            let sum = try #require(sums[group["label"] as! String])
            #expect(group["connections"] as? Int == sum.count && group["bytesIn"] as? Int == sum.bytesIn)
            #expect(group["bytesOut"] as? Int == sum.bytesOut && group["packets"] as? Int == sum.packets)
        }
        let totals = groups.map { ($0["bytesIn"] as! Int) + ($0["bytesOut"] as! Int) }
        #expect(totals == totals.sorted(by: >))
        #expect(groups.first?["term"] as? String == "host:\(groups.first?["label"] as! String)")
        // A search the store cannot narrow by is matched row by row: the same totals for its rows.
        let searched = try C.pythonJSON(try C.run(["flows", "--data-dir", directory.url.path, "--group", "host", "--search", "host-1",
                                                    "--json"]).out)
        let one = try #require((searched["groups"] as? [[String: Any]])?.first)
        #expect(searched["rowByRow"] as? Bool == true && searched["totalGroups"] as? Int == 1)
        #expect(one["label"] as? String == "host-1.example" && one["connections"] as? Int == sums["host-1.example"]?.count)
        let text = try C.run(["flows", "--data-dir", directory.url.path, "--group", "program"])
        #expect(text.out.hasPrefix("PROGRAM") && text.out.contains("No program named"))
    }
}
