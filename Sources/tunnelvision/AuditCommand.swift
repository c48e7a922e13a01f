import App
import AppLinux
import Foundation
import Shared

/// `tunnelvision audit …`: network evidence for a security assessment (audit.md) — projects and
/// their allowlists, sessions recorded around one command or a running service, markers, and
/// what a session's traffic shows against the requirement catalogue.
enum AuditCommand {
    struct Request: Equatable {
        var question: AuditQuestion
        var json: Bool
        /// `-o FILE` (report, export).
        var output: String?
        var force = false
    }

    /// `audit record`: a session around one `run`.
    struct RecordRequest: Equatable {
        var session: AuditSessionRequest
        var run: RunCommand.Request
        var json: Bool
    }

    static let help = """
    tunnelvision audit project create NAME [--allow PATTERN[=NOTE]]... [--bundle-id ID] [--catalogue ID]
    tunnelvision audit project list | show P | delete P [--yes]
    tunnelvision audit project edit P [--name N] [--allow PATTERN[=NOTE]]... [--disallow PATTERN]...
                                      [--bundle-id ID | --no-bundle-id] [--catalogue ID]
    tunnelvision audit sessions [P]
    tunnelvision audit record --project P (--baseline | --release V[+B]) [--notes T] [--json] [RUN OPTIONS] -- CMD ARGS...
    tunnelvision audit start --project P (--baseline | --release V[+B]) [--notes T] [--ca-trusted]
    tunnelvision audit end [SESSION]
    tunnelvision audit delete SESSION --yes
    tunnelvision audit mark consent | login | logout | "YOUR WORDS"
    tunnelvision audit findings SESSION
    tunnelvision audit report SESSION [-o FILE.html | -o FILE.pdf [--force]]
    tunnelvision audit export SESSION [-o DIR]
    tunnelvision audit diff SESSION SESSION
    (each with [--data-dir D] [--json])

    Network evidence for a security assessment (BSI TR-03161 for medical apps): which hosts a
    program reached, over what, with which TLS, whether it pins, and what it sent before consent.

    A project (P: its number or exact name) holds the hosts the audited program may reach:
    PATTERN is a host (api.example.com) or every name under one (*.example.com, which does not
    cover example.com itself); ASCII only (IDNs as xn--). The bundle id is informational only.

    record   starts a session, runs CMD exactly as 'tunnelvision run' does (its options: --inspect,
             --capture-detail, --no-capture, --mtu… — 'tunnelvision help run'), ends the session when
             CMD ends, and exits with CMD's status. Every connection of CMD is the session's evidence.
             --baseline records without the audited program (for host-wide sessions); --release
             names the program's version and build. With --inspect, pinning can be told: a client
             that refuses the run's CA is recorded as pinning; nothing is ever forced.
             The session's number and its end go to standard error (standard output is CMD's);
             with --json as JSON lines there.
    start    starts a session around the monitoring service running on the data directory
             ('tunnelvision up …'): every connection the service records while it is open is its
             evidence. Pinning can be told only when the service inspects (up --inspect) and the
             audited programs trust its CA: read from the system's trust bundle (/etc/ssl/certs,
             which TunnelVision never writes), or stated with --ca-trusted when they keep their
             own store (a container's, a device's).
    end      ends SESSION, or the session recording now.
    delete   deletes a session and its markers; its connections stay in the history, no longer
             kept as evidence (past the storage limits). A project with sessions is deleted only
             with --yes, and so is a session.
    mark     places a marker in the session recording now, at this second — from inside the audited
             command or any other terminal: consent (the person consented: what came before is
             'activity before consent'), login, logout, or your own words.
    findings the session's findings and each requirement's verdict: contradicted, observed without
             contradiction, or not assessed. No verdict says a requirement is met.
    report   the report a person hands over: one HTML file built for printing (how the session was
             recorded, its markers, each finding with its connections, every check's coverage, the
             verdicts, the tool's limits) on standard output or into FILE; FILE.pdf is printed by
             Chromium (chromium must be installed). An existing FILE is replaced only with --force.
    export   the evidence bundle of an ended session, for the assessor: a zip named
             tunnelvision-evidence-session-ID-YYYYMMDD-HHMMSS.zip (UTC) written into DIR (else the
             current directory), holding session.json, flows.json, flows.csv, findings.json,
             capture.pcapng (every packet commented with its connection and findings), capture.json
             and manifest.json (every other file's SHA-256). Decrypted content is never in it.
             Nothing is left behind when it fails; an existing file is never replaced.
    diff     two ended sessions of one project's releases (never a baseline): new, gone, in both and
             undetermined domains, unexpected new ones (not on the allowlist) first, TLS changes.

    At most one session records at a time. Its connections are kept past the storage limits
    until the session (or its project) is deleted.
    Exit status 1 when something could not be done, 2 on a usage error.
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var rest = arguments
        let force = rest.contains("--force")
        rest.removeAll { $0 == "--force" }
        var output: String?
        if let index = rest.firstIndex(of: "-o") {
            guard index + 1 < rest.count else { throw Invocation.UsageError(message: "audit: -o needs a file") }
            output = rest[index + 1]
            rest.removeSubrange(index...index + 1)
        }
        var question: AuditQuestion
        do {
            question = try AuditQuestion.parse(rest)
        } catch {
            throw Invocation.UsageError(message: error.message)
        }
        switch question.action {
        case .report:
            if force && output == nil { throw Invocation.UsageError(message: "audit report: --force is for -o FILE") }
        case let .export(id, _):
            if force { throw Invocation.UsageError(message: "audit export: never replaces a file, so --force does not go with it") }
            question.action = .export(id, directory: output)
            output = nil
        default:
            if output != nil || force { throw Invocation.UsageError(message: "audit: -o and --force are for 'audit report' and 'audit export'") }
        }
        return Request(question: question, json: json, output: output, force: force)
    }

    /// `arguments` follow `audit record`: the session's options, then `run`'s (with CMD).
    static func parseRecord(_ arguments: [String]) throws(Invocation.UsageError) -> RecordRequest {
        // Before `--`, the session's options may stand among run's; without one, only at the
        // front (CMD's own options could be anything).
        let end = arguments.firstIndex(of: "--") ?? 0
        var options = Array(arguments[..<end]), rest = Array(arguments[end...])
        if end == 0 { (options, rest) = (rest, []) }
        let json = options.contains("--json")
        options.removeAll { $0 == "--json" }
        var sessionWords: [String] = [], runWords: [String] = []
        var index = 0
        while index < options.count {
            let word = options[index]
            if AuditSessionRequest.options.contains(word) {
                sessionWords.append(word)
                if word != "--baseline", index + 1 < options.count {
                    sessionWords.append(options[index + 1])
                    index += 1
                }
            } else if end == 0 {
                runWords += options[index...]
                break
            } else {
                runWords.append(word)
            }
            index += 1
        }
        let session: AuditSessionRequest
        do {
            session = try AuditSessionRequest.parse(taking: &sessionWords, command: "audit record")
        } catch {
            throw Invocation.UsageError(message: error.message)
        }
        return RecordRequest(session: session, run: try RunCommand.parse(runWords + rest), json: json)
    }

    static func run(_ request: Request) async -> Int32 {
        do throws(QuestionFailure) {
            let answer = try await request.question.answer()
            if case .report = answer, let path = request.output {
                do throws(AuditReportFile.Failure) {
                    let written = try AuditReportFile.write(answer.text, to: path, force: request.force)
                    var json = JSONWriter()
                    json.beginObject()
                    json.string("file", path)
                    json.string("format", written.format)
                    json.number("bytes", written.bytes)
                    json.endObject()
                    print(request.json ? json.writer.string : "wrote the report to \(path) (\(written.format), \(written.bytes) bytes)")
                    return 0
                } catch {
                    printError("tunnelvision: \(error)")
                    return 1
                }
            }
            print(request.json ? answer.json : answer.text)
            return 0
        } catch {
            printError("tunnelvision: \(error)")
            return error.kind == .badParameter ? 2 : 1
        }
    }

    static func record(_ request: RecordRequest) async -> Int32 {
        let directory = request.run.options.dataDirectory
        let conditions = AuditRecordingConditions.recordedCommand(inspecting: request.run.options.inspection != nil)
        let recording: AuditRecording
        do throws(QuestionFailure) {
            recording = try await AuditQuestion.record(request.session, inspection: conditions, dataDirectory: directory)
        } catch {
            printError("tunnelvision: \(error); the command was not started")
            return 1
        }
        let started = AuditQuestion.Answer.started(recording)
        printError(request.json ? started.json : "tunnelvision: \(started.text)")
        let status = await RunCommand.run(request.run)
        do throws(QuestionFailure) {
            let ended = try await AuditQuestion.finish(recording.session.id, dataDirectory: directory)
            printError(request.json ? ended.json : "tunnelvision: \(ended.text)")
            return status
        } catch {
            printError("tunnelvision: audit session \(recording.session.id) could not be ended: \(error) "
                       + "(the command exited with status \(status); end it with 'tunnelvision audit end \(recording.session.id)')")
            return 1
        }
    }
}
