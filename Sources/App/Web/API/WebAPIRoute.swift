import Foundation
import Shared

/// What one request to the web API asks (path + method + query → a question and its parameters),
/// read with the commands' own parsers: a query parameter `protocol=tcp,udp` is the option
/// `--protocol tcp,udp`, so the API and the command read the same words the same way and refuse
/// them with the same sentence. Pure: no I/O, the instant relative times count from is an input.
package enum WebAPIRoute: Sendable, Equatable {
    case flows(TimelineQuestion)
    case activity(ActivityQuestion)
    /// `flow ID [--packets N]`.
    case inspector(FlowQuestion, packets: Int?)
    /// `flow ID --packet N`.
    case packet(FlowQuestion, number: Int)
    /// The bytes `flow ID --pcap FILE` (or `--pcapng`) writes.
    case flowCapture(FlowQuestion, FlowCaptureFormat)
    /// `captures`, `captures rm SEQ [--including-evidence]`, `captures rotate`.
    case captures(CapturesQuestion)
    /// The capture file of that sequence, as a download.
    case captureFile(CapturesQuestion, sequence: UInt32)
    /// `storage`, `storage apply`, `storage clear --yes [--including-evidence]`, `storage clear-plaintext --yes`.
    case storage(StorageQuestion)
    case settings(SettingsQuestion)
    case changeSetting(SettingsQuestion, SettingChange)
    case diagnostics(DiagnosticsQuestion)
    /// The live feed as Server-Sent Events.
    case live
    /// The live feed's line for now.
    case liveNow
    /// `ca show`, `ca create`, `ca create --remake --yes`, `ca remove --yes`, the root certificate.
    case certificateAuthority(CAWebAction)
    /// The monitoring service's state (`status --json`, with what the screen may offer), or the
    /// Dashboard's Start and Stop.
    case monitoring(MonitoringAction)
    /// The export document, as a download.
    case export(ExportQuestion)
    /// What the export holds, before it is handed over.
    case exportSummary(ExportQuestion)
    /// `audit` (the overview), an action the Audit screen asks in the command's own words
    /// (`POST /api/audit` with `{"arguments": [...]}`), a session's findings, a release diff.
    case audit(AuditQuestion)
    /// What a page says when it loses its server, and when (`ServerContact`); asked also just to
    /// learn that the server still answers.
    case contact

    /// A request the API does not answer: its status and the sentence said.
    package struct Refusal: Error, Sendable, Equatable {
        package let status: HTTPStatus
        package let message: String
        /// The field whose value was refused, as the question said (`QuestionFailure.parameter`).
        package let parameter: QuestionFailure.RefusedParameter?

        package init(_ status: HTTPStatus, _ message: String, parameter: QuestionFailure.RefusedParameter? = nil) {
            self.status = status
            self.message = message
            self.parameter = parameter
        }
    }

    package static let prefix = "/api/"

    /// The route of `request` over the data directory at `dataDirectory` (its path).
    package static func resolve(_ request: HTTPRequest, dataDirectory: String, now: Date) -> Result<WebAPIRoute, Refusal> {
        Result { () throws(Refusal) in try route(request, dataDirectory: dataDirectory, now: now) }
    }

    private static func route(_ request: HTTPRequest, dataDirectory: String, now: Date) throws(Refusal) -> WebAPIRoute {
        guard request.path.hasPrefix(prefix) else { throw notFound(request.path) }
        let segments = request.path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let directory = ["--data-dir", dataDirectory]
        let call = Call(request: request)
        switch segments {
        case ["flows"]:
            try call.expect("GET")
            let options = try call.options(for: "flows", ["search", "protocol", "status", "reason", "program", "since", "until", "sort", "group", "limit", "after", "zone"])
            return .flows(try asked { () throws(QuestionFailure) in try TimelineQuestion.parse(directory + options, now: now) })
        case ["activity"]:
            try call.expect("GET")
            let options = try call.options(for: "activity", ["from", "to", "bars", "zone"])
            return .activity(try asked { () throws(QuestionFailure) in try ActivityQuestion.parse(directory + options, now: now) })
        case let path where path.count == 2 && path[0] == "flows":
            try call.expect("GET")
            let options = try call.options(for: "flow", ["packets"])
            let question = try asked { () throws(QuestionFailure) in try FlowQuestion.parse(directory + [path[1]] + options) }
            guard case let .inspect(packets) = question.action else { throw notFound(request.path) }
            return .inspector(question, packets: packets)
        case let path where path.count == 4 && path[0] == "flows" && path[2] == "packets":
            try call.expect("GET", parameters: "flow")
            let question = try asked { () throws(QuestionFailure) in try FlowQuestion.parse(directory + [path[1], "--packet", path[3]]) }
            guard case let .packet(number) = question.action else { throw notFound(request.path) }
            return .packet(question, number: number)
        case let path where path.count == 3 && path[0] == "flows" && captureFormats[path[2]] != nil:
            try call.expect("GET", parameters: "flow")
            let question = try asked { () throws(QuestionFailure) in try FlowQuestion.parse(directory + [path[1]]) }
            return .flowCapture(question, captureFormats[path[2]]!)
        case ["captures"]:
            try call.expect("GET", parameters: "captures")
            return .captures(try asked { () throws(QuestionFailure) in try CapturesQuestion.parse(directory) })
        case ["captures", "rotate"]:
            try call.expect("POST", parameters: "captures rotate")
            return .captures(try asked { () throws(QuestionFailure) in try CapturesQuestion.parse(directory + ["rotate"]) })
        case let path where path.count == 3 && path[0] == "captures" && path[2] == "delete":
            try call.expect("POST")
            let agreed = try call.evidenceAgreement(for: "captures rm")
            return .captures(try asked { () throws(QuestionFailure) in try CapturesQuestion.parse(directory + ["rm", path[1]] + agreed) })
        case let path where path.count == 2 && path[0] == "captures":
            try call.expect("GET", parameters: "captures")
            guard let sequence = UInt32(path[1]) else {
                throw Refusal(.badRequest, "captures: \(path[1]) is not a capture's sequence (a number 'tunnelvision captures' lists)")
            }
            return .captureFile(CapturesQuestion(action: .list, dataDirectory: dataDirectory), sequence: sequence)
        case ["storage"]:
            try call.expect("GET", parameters: "storage")
            return .storage(StorageQuestion(action: .usage, dataDirectory: dataDirectory))
        case ["storage", "apply"]:
            try call.expect("POST", parameters: "storage apply")
            return .storage(StorageQuestion(action: .apply, dataDirectory: dataDirectory))
        case ["storage", "clear"]:
            try call.expect("POST")
            let agreed = try call.evidenceAgreement(for: "storage clear")
            return .storage(StorageQuestion(action: .clear(confirmed: true), dataDirectory: dataDirectory, includingEvidence: !agreed.isEmpty))
        case ["storage", "clear-plaintext"]:
            try call.expect("POST", parameters: "storage clear-plaintext")
            return .storage(StorageQuestion(action: .clearPlaintext(confirmed: true), dataDirectory: dataDirectory))
        case ["settings"]:
            try call.expect(["GET", "POST"], parameters: "settings")
            let question = SettingsQuestion(dataDirectory: dataDirectory)
            guard request.method == "POST" else { return .settings(question) }
            let body = try SettingBody.read(request.body)
            return .changeSetting(question, try asked { () throws(QuestionFailure) in
                try SettingsQuestion.change(key: body.setting, value: body.value)
            })
        case ["diagnostics"]:
            try call.expect("GET", parameters: "diagnostics")
            return .diagnostics(DiagnosticsQuestion(dataDirectory: dataDirectory))
        case ["live"]:
            try call.expect("GET", parameters: "live")
            return .live
        case ["live", "now"]:
            try call.expect("GET", parameters: "live")
            return .liveNow
        case ["ca"]:
            try call.expect("GET", parameters: "ca show")
            return .certificateAuthority(.show)
        case ["ca", "create"]:
            try call.expect("POST", parameters: "ca create")
            return .certificateAuthority(.create)
        case ["ca", "remake"]:
            try call.expect("POST", parameters: "ca create --remake")
            return .certificateAuthority(.remake)
        case ["ca", "remove"]:
            try call.expect("POST", parameters: "ca remove")
            return .certificateAuthority(.remove)
        case let path where path.count == 2 && path[0] == "ca" && CAWebAction.certificateNames[path[1]] != nil:
            try call.expect("GET", parameters: "ca export")
            return .certificateAuthority(.certificate(CAWebAction.certificateNames[path[1]]!))
        case ["monitoring"]:
            try call.expect("GET", parameters: "status")
            return .monitoring(.show)
        case ["monitoring", "start"]:
            try call.expect("POST", parameters: "up")
            return .monitoring(.start)
        case ["monitoring", "stop"]:
            try call.expect("POST", parameters: "down")
            return .monitoring(.stop)
        case ["export"]:
            // What the Timeline shows, in a format: the list's filters, as `export` takes them.
            try call.expect("POST")
            let options = try Self.exportFormat(try call.options(for: "export", ["format"] + Self.exportFilters))
            var question = try asked { () throws(QuestionFailure) in try ExportQuestion.parse(directory + options, json: false, now: now) }
            question.output = .stream
            return .export(question)
        case ["export", "summary"]:
            try call.expect("GET", parameters: "export")
            return .exportSummary(ExportQuestion(dataDirectory: dataDirectory, output: .stream))
        case ["audit"]:
            try call.expect(["GET", "POST"], parameters: "audit")
            guard request.method == "POST" else { return .audit(AuditQuestion(action: .overview, dataDirectory: dataDirectory)) }
            let words = try AuditBody.read(request.body).arguments
            guard !words.isEmpty else { throw Refusal(.badRequest, "audit: the body's arguments name no action") }
            return .audit(try asked { () throws(QuestionFailure) in try AuditQuestion.parse(directory + words) })
        case let path where path.count == 4 && path[0] == "audit" && path[1] == "sessions" && ["findings", "report", "export"].contains(path[3]):
            try call.expect("GET", parameters: "audit \(path[3])")
            return .audit(try asked { () throws(QuestionFailure) in try AuditQuestion.parse(directory + [path[3], path[2]]) })
        case ["audit", "diff"]:
            try call.expect("GET")
            let sessions = try call.options(for: "audit diff", ["earlier", "later"]).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            return .audit(try asked { () throws(QuestionFailure) in try AuditQuestion.parse(directory + ["diff"] + sessions) })
        case ["contact"]:
            try call.expect("GET", parameters: "contact")
            return .contact
        default:
            throw notFound(request.path)
        }
    }

    /// `capture.pcap` and `capture.pcapng`, the two formats `flow ID --pcap/--pcapng` writes.
    static let captureFormats: [String: FlowCaptureFormat] = ["capture.pcap": .pcap, "capture.pcapng": .pcapng]

    private static func notFound(_ path: String) -> Refusal {
        Refusal(.notFound, "the web API has no \(path)")
    }

    /// A question's parameters refused with the command's own sentence.
    private static func asked<T>(_ parse: () throws(QuestionFailure) -> T) throws(Refusal) -> T {
        do throws(QuestionFailure) { return try parse() } catch { throw Refusal(.badRequest, error.message, parameter: error.parameter) }
    }

    /// The request's method and query, checked against what a route takes.
    /// The filters and the order a download of the Timeline's list takes: `flows`' own.
    static let exportFilters = ["search", "protocol", "status", "reason", "program", "since", "until", "sort"]

    /// `--format csv|har|json` (the query's `format=`) as `export`'s own flag.
    static func exportFormat(_ options: [String]) throws(Refusal) -> [String] {
        guard let index = options.firstIndex(of: "--format") else { return options }
        var rest = options
        let value = index + 1 < rest.count ? rest[index + 1] : ""
        rest.removeSubrange(index...min(index + 1, rest.count - 1))
        switch value {
        case "json": return rest
        case "csv", "har": return rest + ["--\(value)"]
        default: throw Refusal(.badRequest, "export: unknown format '\(value)': give json, csv or har")
        }
    }

    private struct Call {
        let request: HTTPRequest

        /// The query as the command's options, in order: `name=value` → `--name value`. An empty
        /// value is a parameter not given (a form's empty field); any other name is refused.
        func options(for command: String, _ names: [String]) throws(Refusal) -> [String] {
            var options: [String] = []
            for item in request.query {
                guard names.contains(item.name) else {
                    throw Refusal(.badRequest, "\(command): unknown parameter '\(item.name)': it takes \(names.joined(separator: ", "))")
                }
                if !item.value.isEmpty { options += ["--" + item.name, item.value] }
            }
            return options
        }

        /// The person's agreement to delete audit evidence (`EvidenceDeletion.switchName`), the
        /// one parameter a deletion takes: `including-evidence=yes` → `--including-evidence`.
        func evidenceAgreement(for command: String) throws(Refusal) -> [String] {
            var agreed: [String] = []
            for item in request.query {
                guard item.name == EvidenceDeletion.switchName else {
                    throw Refusal(.badRequest, "\(command): unknown parameter '\(item.name)': it takes \(EvidenceDeletion.switchName)")
                }
                switch item.value {
                case "yes": agreed = [EvidenceDeletion.option]
                case "": break
                default:
                    throw Refusal(.badRequest, "\(command): \(EvidenceDeletion.switchName) takes yes, not '\(item.value)'")
                }
            }
            return agreed
        }

        func expect(_ method: String, parameters command: String? = nil) throws(Refusal) {
            try expect([method], parameters: command)
        }

        /// `methods` only — HEAD wherever GET is (RFC 9110 § 9.3.2: the same answer without its
        /// body) — and no query at all when `command` is named (it takes none).
        func expect(_ methods: [String], parameters command: String? = nil) throws(Refusal) {
            let method = request.method == "HEAD" ? "GET" : request.method
            guard methods.contains(method) else {
                throw Refusal(.methodNotAllowed, "\(request.method) \(request.path) is not answered: it takes \(methods.joined(separator: " or "))")
            }
            if let command, let item = request.query.first {
                throw Refusal(.badRequest, "\(command): unknown parameter '\(item.name)': it takes none")
            }
        }
    }

    /// `{"arguments": ["project", "create", "NAME", …]}`, the body of `POST /api/audit`: the words
    /// `tunnelvision audit` takes, read by its own parser.
    private struct AuditBody: Decodable {
        let arguments: [String]

        static func read(_ body: [UInt8]) throws(Refusal) -> AuditBody {
            do {
                return try JSONDecoder().decode(AuditBody.self, from: Data(body))
            } catch {
                throw Refusal(.badRequest, "audit: the body must be {\"arguments\": [WORD, …]} in JSON "
                              + "(the words 'tunnelvision help audit' lists)")
            }
        }
    }

    /// `{"setting": "NAME", "value": "VALUE"}`, the body of `POST /api/settings`.
    private struct SettingBody: Decodable {
        let setting: String
        let value: String

        static func read(_ body: [UInt8]) throws(Refusal) -> SettingBody {
            do {
                return try JSONDecoder().decode(SettingBody.self, from: Data(body))
            } catch {
                throw Refusal(.badRequest, "settings set: the body must be {\"setting\": NAME, \"value\": VALUE} in JSON "
                              + "(the names and values 'tunnelvision help settings' lists)")
            }
        }
    }
}
