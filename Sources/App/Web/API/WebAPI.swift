import Foundation
import Shared

/// The web app's JSON API: every route of `WebAPIRoute` answered by the same question the matching
/// command asks, with the same JSON text it prints with `--json` (newline included); a question
/// that gets no answer is `{"error": sentence}` with the status its kind calls for. Downloads
/// carry their type and an attachment name. The live feed's stream is the server's to push.
package actor WebAPI: WebResponder {
    package typealias LiveLine = @Sendable () async -> String

    let dataDirectory: URL
    let tunnel: TunnelControl
    let liveLine: LiveLine
    let clock: @Sendable () -> Date
    let monitoring: MonitoringControl?

    /// `tunnel` asks the tunnel running there (`TunnelControl.channel`); `liveLine` is the live
    /// feed's line for now (`WebLiveFeed.current`), the one its stream pushes every second;
    /// `monitoring` starts and stops the directory's service (nil: this server cannot).
    package init(dataDirectory: URL, tunnel: TunnelControl, liveLine: @escaping LiveLine,
                monitoring: MonitoringControl? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.dataDirectory = dataDirectory
        self.tunnel = tunnel
        self.liveLine = liveLine
        self.monitoring = monitoring
        self.clock = clock
    }

    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        switch WebAPIRoute.resolve(request, dataDirectory: dataDirectory.path, now: clock()) {
        case .failure(let refusal): return WebAPIResponse.error(refusal.status, refusal.message, parameter: refusal.parameter)
        case .success(let route):
            do throws(QuestionFailure) { return try await answer(route) } catch { return WebAPIResponse.failure(error) }
        }
    }

    private func answer(_ route: WebAPIRoute) async throws(QuestionFailure) -> HTTPResponse {
        switch route {
        case let .flows(question): return .json(try await question.respond(json: true, now: clock()))
        case let .activity(question): return .json(try await question.answer().json(now: clock()))
        case let .inspector(question, packets): return .json(try await question.inspector(packets: packets).json())
        case let .packet(question, number): return .json(try await question.packet(number).json(flowID: question.flowID))
        case let .flowCapture(question, format):
            let capture = try await question.capture(format)
            return WebAPIResponse.download(capture.bytes, type: WebAPIResponse.contentType(of: format),
                                           name: "connection-\(question.flowID).\(format.rawValue)")
        case let .captures(question): return try await captures(question)
        case let .captureFile(question, sequence): return try await captureFile(sequence, of: question)
        case let .storage(question): return try await storage(question)
        case let .settings(question):
            let reading = question.reading()
            if let problem = reading.problem { throw QuestionFailure(.failed, SettingsQuestion.problemSentence(problem)) }
            return WebAPIResponse.json(exactly: SettingsQuestion.json(reading.settings))
        case let .changeSetting(question, change): return .json(try question.set(change, force: false, tunnel: tunnel).json)
        case let .diagnostics(question): return .json(try await question.answer(tunnel: tunnel).json)
        case .live: return WebAPIResponse.eventStream
        case .liveNow: return .json(await liveLine())
        case let .certificateAuthority(action): return try certificateAuthority(action)
        case let .export(question):
            // Written to a file first, as `export -o FILE` writes it, then sent from disk: the
            // document is never held whole in memory, and its name goes once it is opened.
            let written = try await question.temporaryFile(in: FileManager.default.temporaryDirectory, now: clock())
            guard let file = written.result.url else { throw QuestionFailure(.failed, "the export was written nowhere") }
            let type = question.format == .csv ? "text/csv; charset=utf-8" : "application/json"
            return WebAPIResponse.download(try Self.opened(file, unlinking: true), type: type, name: question.format.fileName)
        case let .exportSummary(question): return .json(try await question.summary(now: clock()).json)
        case .contact: return .json(ServerContact.json)
        case let .audit(question):
            if case let .export(id, _) = question.action {
                // Written into a private folder, then sent from disk and unlinked, as the export's file is.
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tunnelvision-evidence-\(UUID().uuidString)")
                do { try PrivateDirectory.create(folder) } catch { throw QuestionFailure(.failed, error.description) }
                defer { try? FileManager.default.removeItem(at: folder) }
                let answer = try await AuditQuestion.export(id, to: folder, dataDirectory: dataDirectory.path, at: clock())
                guard case let .exported(result) = answer else { throw QuestionFailure(.failed, "the bundle was written nowhere") }
                return WebAPIResponse.download(try Self.opened(result.url, unlinking: true), type: "application/zip",
                                               name: result.url.lastPathComponent)
            }
            let answer = try await question.answer(now: clock())
            if case let .report(report, _) = answer {
                return WebAPIResponse.download(Array(answer.text.utf8), type: "text/html; charset=utf-8",
                                               name: "tunnelvision-audit-report-session-\(report.session.id).html")
            }
            return .json(answer.json)
        case let .monitoring(action):
            guard let monitoring else { throw QuestionFailure(.failed, "this server cannot start or stop monitoring") }
            return .json(await monitoring.perform(action).json)
        }
    }

    private func captures(_ question: CapturesQuestion) async throws(QuestionFailure) -> HTTPResponse {
        switch question.action {
        case .list: .json(try await question.listing(tunnel: tunnel).json)
        case .remove(let sequences): .json(try await question.remove(sequences, tunnel: tunnel).json)
        case .rotate: .json(try question.rotate(tunnel: tunnel).json)
        }
    }

    private func captureFile(_ sequence: UInt32, of question: CapturesQuestion) async throws(QuestionFailure) -> HTTPResponse {
        let files = try await CapturesQuestion.files(in: question.directory, access: .read)
        guard let file = files.first(where: { $0.sequence == sequence }) else {
            throw QuestionFailure(.notFound, "no capture \(sequence) in \(question.directory.path): 'tunnelvision captures' lists them")
        }
        let format: FlowCaptureFormat = file.url.pathExtension == "pcapng" ? .pcapng : .pcap
        return WebAPIResponse.download(try Self.opened(file.url), type: WebAPIResponse.contentType(of: format),
                                       name: file.url.lastPathComponent)
    }

    /// A file to send from disk; `unlinking` removes its name once open (a temporary file), and
    /// also when it cannot be opened, so nothing is left behind either way.
    private static func opened(_ url: URL, unlinking: Bool = false) throws(QuestionFailure) -> HTTPFileBody {
        do throws(HTTPFileBody.OpenFailure) { return try HTTPFileBody(opening: url.path, unlinking: unlinking) } catch {
            if unlinking { unlink(url.path) }
            throw QuestionFailure(.failed, error.description)
        }
    }

    /// The CA's state after each action, with what the action did; an action the state does not
    /// offer (Create over a CA, Remake over none) is refused 409 with the command's own sentence.
    private func certificateAuthority(_ action: CAWebAction) throws(QuestionFailure) -> HTTPResponse {
        let question = CAQuestion(dataDirectory: dataDirectory.path, now: clock)
        func offered(_ allowed: (CAReport) -> Bool, _ act: () throws(QuestionFailure) -> HTTPResponse) throws(QuestionFailure) -> HTTPResponse {
            let before = question.show()
            do throws(QuestionFailure) { return try act() } catch {
                if !allowed(before) { return WebAPIResponse.error(.conflict, error.message) }
                throw error
            }
        }
        switch action {
        case .show:
            return .json(question.show().json)
        case .create:
            return try offered({ CertificateStatusPolicy.canGenerate($0.status) }) { () throws(QuestionFailure) in
                let report = try question.create()
                return .json(report.json(lines: CertificateSetupCard.createdLines))
            }
        case .remake:
            return try offered({ CertificateSetupPolicy.canRegenerate($0.status) }) { () throws(QuestionFailure) in
                let (removal, report) = try question.remake()
                return .json(report.json(lines: CertificateSetupCard.remadeLines(removal)))
            }
        case .remove:
            let removal = try question.remove()
            return .json(question.show().json(lines: removal.lines))
        case let .certificate(format):
            let download = CAWebAction.download(format)
            return WebAPIResponse.download([UInt8](try question.rootCertificate(format)), type: download.type, name: download.name)
        }
    }

    private func storage(_ question: StorageQuestion) async throws(QuestionFailure) -> HTTPResponse {
        let presence = try question.prepare(tunnel: tunnel)
        switch question.action {
        case .usage: return .json(try await question.usage(presence: presence).json)
        case .apply: return .json(StorageReport.outcomeJSON(try await question.apply(presence: presence)))
        case .clear: return .json(StorageReport.outcomeJSON(try await question.clear(presence: presence)))
        case .clearPlaintext: return .json(StorageReport.outcomeJSON(try await question.clearPlaintext(presence: presence)))
        }
    }
}

extension HTTPResponse {
    /// A command's `--json` line as it prints it: the text and its newline.
    static func json(_ line: String) -> HTTPResponse { WebAPIResponse.json(exactly: line + "\n") }
}
