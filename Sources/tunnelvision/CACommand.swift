#if canImport(Glibc)
import Glibc
#endif
import App
import Shared

/// `tunnelvision ca create [--remake --yes] | show | export [--der|--pem] FILE [--force] | remove [--yes]`:
/// parses, asks `CAQuestion`, prints. Exit status 0 done, 1 refused or failed, 2 usage.
enum CACommand {
    enum Action: Equatable {
        case show
        case create(remake: Bool)
        case export(path: String, format: CAQuestion.ExportFormat, force: Bool)
        case remove
    }

    struct Request: Equatable {
        let action: Action
        let dataDirectory: String?
        let json: Bool
        /// --yes: the removal (or remake) was agreed to beforehand.
        let confirmed: Bool
    }

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var rest = arguments
        let dataDirectory = try Invocation.takeDataDirectory(from: &rest, command: "ca")
        func flag(_ name: String) -> Bool {
            guard let index = rest.firstIndex(of: name) else { return false }
            rest.remove(at: index)
            return true
        }
        let yes = flag("--yes"), force = flag("--force"), remake = flag("--remake"), der = flag("--der"), pem = flag("--pem")
        if let unknown = rest.first(where: { $0.hasPrefix("-") && $0 != "-" }) { throw usage("ca: unknown option \(unknown)") }
        guard let verb = rest.first else { throw usage("ca: which? (tunnelvision ca create | show | export FILE | remove)") }
        let operands = Array(rest.dropFirst())
        let action: Action
        switch verb {
        case "show":
            action = .show
        case "create":
            if yes && !remake { throw usage("ca create: --yes goes with --remake (tunnelvision ca create --remake --yes)") }
            action = .create(remake: remake)
        case "export":
            guard operands.count == 1 else { throw usage("ca export: to which file? (tunnelvision ca export [--der|--pem] FILE)") }
            if der && pem { throw usage("ca export: --der or --pem, not both") }
            action = .export(path: operands[0], format: der ? .der : .pem, force: force)
        case "remove":
            action = .remove
        default:
            throw usage("ca: unknown action \(verb); it takes create, show, export or remove")
        }
        if case .export = action {} else {
            if !operands.isEmpty { throw usage("ca \(verb): unexpected \(operands[0])") }
            if force { throw usage("ca: --force goes with 'ca export'") }
            if der || pem { throw usage("ca: --der and --pem go with 'ca export'") }
        }
        if remake, action != .create(remake: true) { throw usage("ca: --remake goes with 'ca create'") }
        if yes, action != .remove, action != .create(remake: true) { throw usage("ca: --yes goes with 'ca remove' and 'ca create --remake'") }
        return Request(action: action, dataDirectory: dataDirectory, json: json, confirmed: yes)
    }

    static func run(_ request: Request) -> Int32 {
        let question = CAQuestion(dataDirectory: request.dataDirectory)
        do throws(QuestionFailure) {
            switch request.action {
            case .show:
                let report = question.show()
                print(request.json ? report.json : report.lines.joined(separator: "\n"))
                return report.status.authority == .generated(.usable) || report.status.authority == .notGenerated ? 0 : 1
            case .create(remake: false):
                let report = try question.create()
                print(request.json ? report.json : CertificateSetupCard.createdText(report).joined(separator: "\n"))
                return 0
            case .create(remake: true):
                guard confirmed(request, CertificateSetupCard.remakeQuestion) else { return 1 }
                let (removal, report) = try question.remake()
                if request.json {
                    print(report.json)
                } else {
                    print(CertificateSetupCard.remadeText(removal, report).joined(separator: "\n"))
                }
                return 0
            case let .export(path, format, force):
                let line = try question.export(to: path, format: format, force: force)
                if request.json {
                    var out = JSONWriter()
                    out.beginObject()
                    out.string("file", path)
                    out.string("format", format.rawValue)
                    out.endObject()
                    print(out.writer.string)
                } else {
                    print(line)
                }
                return 0
            case .remove:
                guard confirmed(request, CertificateSetupCard.removeQuestion) else { return 1 }
                let removal = try question.remove()
                print(request.json ? removal.json : removal.lines.joined(separator: "\n"))
                return 0
            }
        } catch {
            printError("tunnelvision: \(error)")
            return error.kind == .badParameter ? 2 : 1
        }
    }

    /// --yes, or a "y" typed at a terminal; without a terminal --yes is required.
    private static func confirmed(_ request: Request, _ question: String) -> Bool {
        if request.confirmed { return true }
        guard isatty(STDIN_FILENO) == 1 else {
            printError("tunnelvision: \(question)\nAdd --yes to agree (there is no terminal to ask on); nothing was changed.")
            return false
        }
        FileDescriptor.writeAll(STDERR_FILENO, text: "\(question) [y/N] ")
        guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
            printError("nothing was changed")
            return false
        }
        return true
    }

    private static func usage(_ message: String) -> Invocation.UsageError { Invocation.UsageError(message: message) }
}
