#if canImport(Glibc)
import Glibc
#endif
import Foundation
import App
import Shared

/// `tunnelvision storage [apply | clear [--yes] [--including-evidence] | clear-plaintext [--yes]] [--data-dir D] [--json]`:
/// what the captures, the history and the decrypted content take and what the limits will do;
/// applying the limits now; deleting everything; deleting the decrypted content alone.
enum StorageCommand {
    struct Request: Equatable {
        var question: StorageQuestion
        var json: Bool
    }

    static let help = """
    tunnelvision storage [--data-dir D] [--json]
    tunnelvision storage apply [--data-dir D] [--json]
    tunnelvision storage clear [--yes] [--including-evidence] [--data-dir D] [--json]
    tunnelvision storage clear-plaintext [--yes] [--data-dir D] [--json]

    Shows what TunnelVision keeps in the data directory: the captures (bytes, files — the one being
    recorded included), the history (bytes of the database and its journal, connections), the
    decrypted content kept when 'plaintext-persistence' is on (the .tvpt files in plaintext/) and
    the total of all three; then the retention limits ('tunnelvision help settings') and what
    applying them now would delete. The size limit governs the captures only (the history's
    database does not shrink when rows go); the history is kept by age; decrypted content by its
    own expiry ('plaintext-age') under a fixed ceiling of \(StorageReport.plaintextCeiling). Audit
    evidence is exempt from both limits: a connection of an audit session (open or ended) and
    every capture holding one of its packets are kept whole until that session is deleted.

    apply  applies the stored limits now, as the tunnel does when a session starts and at each new
           capture file: the oldest captures past the limits deleted (never the one being recorded,
           which counts at the 64 MiB it grows to, so the captures stay within the size limit, nor
           one holding audit evidence: newer ones go in its place, and when the evidence alone
           keeps the captures over the size limit it says so), the connections last seen before
           the age limit deleted (not audit evidence); then the decrypted content's
           sweep: its index entries past 'plaintext-age' deleted, the files no entry points into
           any more, then the oldest over the ceiling (never the file being written). Always
           answers, also "nothing to delete". Refuses, deleting nothing, when the settings or the
           captures cannot be read; when which captures hold audit evidence cannot be read it
           deletes no capture and no connection, and says why.
    clear  deletes every connection of the history, every capture but the one being recorded and
           all decrypted content but the file being written. On a terminal it asks first ("delete
           N connections, M captures (X) and K files of decrypted content (Y)? [y/N]"); --yes
           answers for it, and without a terminal --yes is required (exit status 1 otherwise).
           A running tunnel goes on recording: its session is kept, its connections so far go.
           Audit projects and sessions stay, but their evidence goes with the rest: the question
           says how many connections are audit evidence, and --yes over a history holding any
           (or one that cannot say) also needs --including-evidence, else nothing is deleted
           (exit status 1).
    clear-plaintext
           deletes the decrypted content alone: every index entry, then every .tvpt file but the
           one a running tunnel is writing (the newest while a tunnel runs), which is kept and
           named with its size. History and captures stay. Asks first like clear; --yes answers.
           Turning 'plaintext-persistence' off stops a running tunnel keeping more at once.

    --including-evidence
                  with clear: agrees to delete the audit evidence (its connections, and the
                  captures holding their packets) with everything else; needed beside --yes
                  whenever the history holds any.
    --data-dir D  the data directory (else $TUNNELVISION_DATA, else /var/lib/tunnelvision for root
                  and $XDG_DATA_HOME/tunnelvision for anyone else).
    --json        one JSON object: usage {"captures" {"bytes", "files"}, "history" {"bytes",
                  "connections", "auditConnections", "problem"}, "plaintext" {"bytes", "files",
                  "ceilingBytes", "problem"}, "totalBytes", "totalComplete", "limits" {"maxAge",
                  "maxCaptureBytes", "problem"}, "plan" {"filesToDelete", "bytesReclaimed",
                  "captureBytesAfter", "historyCutoff" (UTC), "sizeCapUnreachable",
                  "sizeCapHeldByEvidence", "keptEvidence" {"files", "bytes"}} or null (then
                  "planProblem" when the audit evidence cannot be read), "tunnel"};
                  apply and clear {"deletedFiles", "bytesReclaimed", "deletedConnections",
                  "sizeCapUnreachable", "sizeCapHeldByEvidence", "keptEvidence", "plaintext",
                  "failures", "changedAnything", "lines"};
                  clear-plaintext {"plaintext" {"deletedFiles", "bytesReclaimed",
                  "deletedIndexEntries", "spared" {"file", "bytes"} or null,
                  "ceilingUnreachable", "failures"}, "failures", "changedAnything", "lines"}.
                  A figure that cannot be read is null with its "problem", never 0.

    Exit status 1 when something could not be read or deleted (each failure is said), 2 on a usage error.

    \(JSONSizeHelp.paragraph)
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        do {
            return Request(question: try StorageQuestion.parse(arguments), json: json)
        } catch {
            throw Invocation.UsageError(message: error.message)
        }
    }

    static func run(_ request: Request) async -> Int32 {
        let question = request.question, json = request.json
        do throws(QuestionFailure) {
            let presence = try question.prepare(tunnel: .channel)
            if let notice = presence.notice, !json { printError("tunnelvision: \(notice)") }
            switch question.action {
            case .usage:
                let usage = try await question.usage(presence: presence)
                if json { print(usage.json) } else { for line in usage.lines { print(line) } }
                return usage.isComplete ? 0 : 1
            case .apply:
                return answer(try await question.apply(presence: presence), json: json)
            case .clear(let confirmed):
                var question = question
                if !confirmed {
                    guard isatty(STDIN_FILENO) == 1 else {
                        printError("tunnelvision: \(StorageQuestion.clearNeedsConfirmation)")
                        return 1
                    }
                    let scope = try await question.clearingPlan(presence: presence)
                    guard agreed(StorageReport.clearQuestion(connections: scope.connections, auditConnections: scope.auditConnections,
                                                             files: scope.files, plaintext: scope.plaintext)) else { return 1 }
                    // A yes to a question that named audit evidence (or said it could not tell) agrees to deleting it.
                    if scope.auditConnections != 0 { question.includingEvidence = true }
                }
                return answer(try await question.clear(presence: presence), json: json)
            case .clearPlaintext(let confirmed):
                if !confirmed {
                    guard isatty(STDIN_FILENO) == 1 else {
                        printError("tunnelvision: \(StorageQuestion.clearPlaintextNeedsConfirmation)")
                        return 1
                    }
                    guard agreed(StorageReport.clearPlaintextQuestion(try question.plaintextToClear(presence: presence))) else {
                        return 1
                    }
                }
                return answer(try await question.clearPlaintext(presence: presence), json: json)
            }
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }

    /// Asks `question` on the terminal; anything but yes says nothing was deleted.
    private static func agreed(_ question: String) -> Bool {
        FileDescriptor.writeAll(STDERR_FILENO, text: question)
        guard StorageReport.isYes(readLine()) else {
            printError("nothing was deleted")
            return false
        }
        return true
    }

    private static func answer(_ outcome: StorageOutcome, json: Bool) -> Int32 {
        if json {
            print(StorageReport.outcomeJSON(outcome))
        } else {
            for line in StorageReport.outcomeLines(outcome) { print(line) }
            for failure in outcome.failures { printError("tunnelvision: \(failure)") }
        }
        return outcome.failures.isEmpty ? 0 : 1
    }
}
