import Shared

/// The program behind a flow, as every screen and document says it: one sentence, and one JSON
/// object whose `state` is `ProgramAttributionState`'s name.
enum ProgramWording {
    /// "curl (pid 4242, /usr/bin/curl), user ana"; for no program, why none was named.
    static func text(_ attribution: ProgramAttribution) -> String {
        switch attribution {
        case .program(let facts):
            let process = ["pid \(facts.pid)", facts.executable].compactMap { $0 }.joined(separator: ", ")
            return "\(facts.command) (\(process)), " + (facts.user.map { "user \($0)" } ?? "uid \(facts.uid)")
        case .socketGone: return "not named: its socket was closed before it could be asked about"
        case .notLocal: return "none on this machine: the connection only passed through it"
        case .unavailable(let reason): return "not named: \(reason)"
        }
    }

    /// The timeline's PROGRAM cell: "curl 4242" (the command and its pid); in brackets, why none
    /// is named — "(closed)", "(passing)", "(unknown)"; "-" when nobody asked.
    static func cell(_ attribution: ProgramAttribution?) -> String {
        switch attribution {
        case .program(let facts)?: "\(facts.command) \(facts.pid)"
        case .socketGone?: "(closed)"
        case .notLocal?: "(passing)"
        case .unavailable?: "(unknown)"
        case nil: "-"
        }
    }

    /// A burst's PROGRAM cell: one process's cell when one made them all, its command when one
    /// program did from several processes, else "several".
    static func cell(_ attributions: [ProgramAttribution?]) -> String {
        guard let first = attributions.first else { return "-" }
        if attributions.allSatisfy({ $0 == first }) { return cell(first) }
        let commands = Set(attributions.map { attribution -> String? in
            if case .program(let facts)? = attribution { facts.command } else { nil }
        })
        if commands.count == 1, let command = commands.first ?? nil { return command }
        return "several"
    }

    /// `"program"`: null when nobody asked (a `run` before programs were kept, one with
    /// `--no-programs`, an analyzed capture), else {"state", "pid", "command", "executable", "uid", "user", "detail", "label"
    /// (the timeline's cell), "text"},
    /// the program's fields null unless `state` is `program`, `detail` unless it is `unavailable`.
    static func write(_ attribution: ProgramAttribution?, to out: inout JSONWriter) {
        out.key("program")
        guard let attribution else { return out.null() }
        let facts: ProgramFacts? = if case .program(let facts) = attribution { facts } else { nil }
        let detail: String? = if case .unavailable(let reason) = attribution { reason } else { nil }
        out.beginObject()
        out.string("state", ProgramAttributionState(attribution).rawValue)
        out.number("pid", facts.map { Int($0.pid) })
        out.string("command", facts?.command)
        out.string("executable", facts?.executable)
        out.number("uid", facts.map { Int($0.uid) })
        out.string("user", facts?.user)
        out.string("detail", detail)
        out.string("label", cell(attribution))
        out.string("text", text(attribution))
        out.endObject()
    }
}
