import Foundation
import Shared

/// The page's flows by the program that opened them (the Timeline's "Group by program"): one
/// group a command, whatever its processes, one for each reason no program was named, and one
/// for flows never asked — in the order each group's newest flow comes in the page. A page is
/// grouped on its own, as its bursts are.
public struct TimelineProgramGroup: Sendable, Equatable {
    /// "program:COMMAND", or the state's name (`socketGone`, `notLocal`, `unavailable`), or
    /// `notAsked`: what tells groups apart.
    public let key: String
    /// The group's heading: the command, or why no program is named.
    public let label: String
    /// In the page's order.
    public let flows: [HistoryFlow]

    /// The key of `attribution`'s group.
    static func key(_ attribution: ProgramAttribution?) -> String {
        guard let attribution else { return "notAsked" }
        if case .program(let facts) = attribution { return "program:" + facts.command }
        return ProgramAttributionState(attribution).rawValue
    }

    static func label(_ attribution: ProgramAttribution?) -> String {
        switch attribution {
        case .program(let facts)?: facts.command
        case .socketGone?: "No program named: closed before it was asked about"
        case .notLocal?: "No program on this machine: passing through"
        case .unavailable?: "No program named: the kernel could not be asked"
        case nil: "Not asked: recorded before programs were kept"
        }
    }

    public static func groups(of flows: [HistoryFlow]) -> [TimelineProgramGroup] {
        var order: [String] = []
        var members: [String: [HistoryFlow]] = [:]
        for flow in flows {
            let key = key(flow.stored.program)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(flow)
        }
        return order.map { key in
            let grouped = members[key]!
            return TimelineProgramGroup(key: key, label: label(grouped[0].stored.program), flows: grouped)
        }
    }

    /// The distinct processes of the group's named flows, in the page's order.
    public var processes: [Int32] {
        var seen: Set<Int32> = []
        return flows.compactMap { flow in
            guard case .program(let facts)? = flow.stored.program, seen.insert(facts.pid).inserted else { return nil }
            return facts.pid
        }
    }

    /// "12 connections from 3 processes, 1.2 MiB received, 80.0 KiB sent".
    public var summary: String {
        var parts = [TimelineListing.connections(flows.count)
                     + (processes.count > 1 ? " from \(processes.count) processes" : processes.count == 1 ? " from pid \(processes[0])" : "")]
        parts.append("\(RunSummary.bytes(flows.reduce(0) { $0 + $1.stored.bytesIn })) received")
        parts.append("\(RunSummary.bytes(flows.reduce(0) { $0 + $1.stored.bytesOut })) sent")
        return parts.joined(separator: ", ")
    }

    /// {"key", "label", "ids" (the page's order), "count", "pids", "summary"}.
    func write(to out: inout JSONWriter) {
        out.beginObject()
        out.string("key", key)
        out.string("label", label)
        out.numbers("ids", flows.map { Int($0.id) })
        out.number("count", flows.count)
        out.numbers("pids", processes.map { Int($0) })
        out.string("summary", summary)
        out.endObject()
    }
}
