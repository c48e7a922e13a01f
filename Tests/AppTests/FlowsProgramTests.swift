import App
import Foundation
import Shared
import TestSupport
import Testing

/// `flows --program NAME` and the PROGRAM column: the store narrows in SQL and the filter in
/// memory, by one rule (`ProgramFacts.isNamed`), and the two must agree.
@Suite(.serialized) struct FlowsProgramTests {
    typealias H = HistoryFixtures
    typealias C = HistoryCommandSupport

    static func facts(_ pid: Int32, _ command: String, _ executable: String?) -> ProgramAttribution {
        .program(ProgramFacts(pid: pid, command: command, executable: executable, uid: 1000, user: "ana"))
    }

    /// Connection n's program, connection n last seen at n seconds.
    static let programs: [ProgramAttribution?] = [
        facts(101, "curl", "/usr/bin/curl"),
        facts(102, "chromium-browse", "/usr/lib/chromium/chromium"),
        facts(103, "python3", "/usr/bin/python3.11"),
        facts(104, "Ünï", "/opt/Ünï"),
        facts(105, "kworker/0:1", nil),
        facts(106, "a,b", "/srv/a,b"),
        .socketGone,
        .notLocal,
        .unavailable("sock_diag: permission denied"),
        nil,
        facts(111, "CURL", "/home/ana/bin/Curl"),
    ]

    static func history() async throws -> (TemporaryDirectory, FlowStore) {
        let directory = TemporaryDirectory("tv-flows-program")
        let store = try H.store(in: directory)
        for (number, program) in programs.enumerated() {
            var record = H.record(H.key(number), first: Double(number), last: Double(number) + 0.5, sni: "host-\(number).example")
            record.program = program
            _ = try await store.upsertFlow(record)
        }
        return (directory, store)
    }

    /// The connection numbers (host-N) of `flows`, ascending.
    static func numbers(_ flows: [StoredFlow]) -> [Int] {
        flows.compactMap { $0.sni?.dropFirst("host-".count).split(separator: ".").first.flatMap { Int($0) } }.sorted()
    }

    @Test("a program is named by its command or its executable's file name, A-Z in any case; the store's SQL and the rule agree on every name")
    func storeAndRuleAgree() async throws {
        let (_, store) = try await Self.history()
        let expected: [String: [Int]] = [
            "curl": [0, 10], "CURL": [0, 10], "Curl": [0, 10],
            "chromium": [1], "chromium-browse": [1], "CHROMIUM-BROWSE": [1],
            "python3": [2], "python3.11": [2], "python": [],
            "Ünï": [3], "ÜNÏ": [], "ünï": [],
            "kworker/0:1": [4], "0:1": [], "kworker": [],
            "a,b": [5],
            "/usr/bin/curl": [], "bin/curl": [], "usr": [], "": [],
        ]
        let all = try await store.recentFlows(limit: 100)
        #expect(all.count == Self.programs.count)
        for (name, numbers) in expected {
            let narrowed = try await store.recentFlows(limit: 100, programs: [ProgramFacts.folded(name)])
            #expect(Self.numbers(narrowed) == numbers, "SQL for \(name.debugDescription)")
            let ruled = all.filter { flow in
                if case .program(let facts)? = flow.program { facts.isNamed(name) } else { false }
            }
            #expect(Self.numbers(ruled) == numbers, "rule for \(name.debugDescription)")
        }
        let both = try await store.recentFlows(limit: 100, programs: ["curl", "python3"])
        #expect(Self.numbers(both) == [0, 2, 10])
        await store.close()
    }

    @Test("flows --program lists only that program's connections, says so in its JSON and its next page, and shows the PROGRAM column")
    func command() async throws {
        let (directory, store) = try await Self.history()
        await store.close()
        let path = directory.url.path
        let text = try C.run(["flows", "--data-dir", path, "--program", "CURL"])
        #expect(text.status == 0, "\(text.err)")
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("PROGRAM") && lines[0].range(of: "PROGRAM")!.lowerBound < lines[0].range(of: "HOST")!.lowerBound)
        #expect(lines.filter { $0.contains(".example") }.count == 2)
        #expect(lines.contains { $0.contains("curl 101") && $0.contains("host-0.example") })
        #expect(lines.contains { $0.contains("CURL 111") && $0.contains("host-10.example") })

        // Every cell of the column: a program, why none, or not asked.
        let every = try C.run(["flows", "--data-dir", path]).out
        for (host, cell) in [("host-6.", "(closed)"), ("host-7.", "(passing)"), ("host-8.", "(unknown)"), ("host-9.", " - "),
                             ("host-5.", "a,b 106")] {
            #expect(every.split(separator: "\n").contains { $0.contains(host) && $0.contains(cell) }, "\(host) \(cell)")
        }

        let json = try C.pythonJSON(try C.run(["flows", "--data-dir", path, "--json", "--program", "python3.11, chromium "]).out)
        let ids = (json["flows"] as? [[String: Any]])?.compactMap { ($0["program"] as? [String: Any])?["pid"] as? Int }
        #expect(ids == [103, 102])
        #expect((json["filter"] as? [String: Any])?["programs"] as? [String] == ["chromium", "python3.11"])

        let paged = try C.run(["flows", "--data-dir", path, "--program", "curl", "--limit", "1"])
        let footer = try #require(paged.out.split(separator: "\n").last.map(String.init))
        #expect(footer.contains("--program curl --limit 1 --after "), "\(footer)")
        let next = try C.run(Array(C.words(try #require(footer.components(separatedBy: "next page: ").last)).dropFirst()))
        #expect(next.out.contains("curl 101") && !next.out.contains("CURL 111"), "\(next.out)")

        let none = try C.run(["flows", "--data-dir", path, "--program", "wget"])
        #expect(none.status == 0 && none.out.hasPrefix("no connections match (none in the history)") && none.out.contains("--program"))
        let empty = try C.run(["flows", "--data-dir", path, "--program", ","])
        #expect(empty.status == 2 && empty.err.contains("--program needs a program's name"))
    }
}
