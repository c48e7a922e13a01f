import Foundation
import App
import AppLinux
import Shared

/// `tunnelvision captures [rm SEQ… [--including-evidence] | rotate] [--data-dir D] [--json]`: the
/// capture files, with the one being recorded and those holding audit evidence marked, and the
/// room left; deleting some (never the one being recorded; one holding audit evidence only when
/// agreed); starting a new file through the running tunnel.
enum CapturesCommand {
    struct Request: Equatable {
        var question: CapturesQuestion
        var json: Bool
    }

    static let help = """
    tunnelvision captures [--data-dir D] [--json]
    tunnelvision captures rm SEQ... [--including-evidence] [--data-dir D] [--json]
    tunnelvision captures rotate [--data-dir D] [--json]

    Lists the capture files (.pcap) the tunnel wrote in the data directory, newest first: each one's
    sequence (the number in its name, which its connections' packets point at), name, size and the
    time of its last write, the one a running tunnel is recording into marked 'recording' and those
    holding a packet of an audit session marked 'audit evidence' (kept by both limits until that
    session is deleted); then how many there are against the size limit, and the room left before
    retention deletes the oldest (see 'tunnelvision help settings' for the limits and when they
    are applied).

    rm SEQ...  deletes those captures. The connections stay in the history; only their raw bytes go
               (their packets then read as "capture deleted"). The capture being recorded is refused:
               'captures rotate' first. A sequence that is not there is an error; the others still go.
               When any of them holds audit evidence (or whether it does cannot be read), nothing is
               deleted and the command says which captures and which audit sessions, unless
               --including-evidence is given (exit status 1).
    rotate     asks the running tunnel to close its capture file and start the next one (so the
               closed one can be copied or deleted without stopping), and says the new file.

    --including-evidence
                  with rm: agrees to delete captures holding audit evidence; their audit sessions
                  and connections stay, those packets' bytes go.
    --data-dir D  the data directory (else $TUNNELVISION_DATA, else /var/lib/tunnelvision for root
                  and $XDG_DATA_HOME/tunnelvision for anyone else).
    --json        one JSON object: the listing {"captures": [{"sequence", "name", "bytes",
                  "lastWritten" (UTC), "recording", "evidence" (null: cannot be read)}], "count",
                  "bytes", "sizeLimit" (bytes or null), "roomLeft" {"size", "expiry",
                  "keptEvidence", "lines"}, "tunnel" (live|absent|unknown)};
                  rm {"deleted": [SEQ], "failed": [{"sequence", "reason"}], "note"};
                  rotate {"rotated": true, "recording": SEQ}.

    Exit status 1 when anything asked could not be done (a capture refused or not found, no tunnel
    to rotate), 2 on a usage error.

    \(JSONSizeHelp.paragraph)
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        do {
            return Request(question: try CapturesQuestion.parse(arguments), json: json)
        } catch {
            throw Invocation.UsageError(message: error.message)
        }
    }

    static func run(_ request: Request) async -> Int32 {
        let question = request.question, json = request.json
        do throws(QuestionFailure) {
            switch question.action {
            case .list:
                show(try await question.listing(tunnel: .channel), json: json)
                return 0
            case .remove(let sequences):
                let removal = try await question.remove(sequences, tunnel: .channel)
                show(removal, json: json)
                return removal.failed.isEmpty ? 0 : 1
            case .rotate:
                let rotation = try question.rotate(tunnel: .channel)
                print(json ? rotation.json : rotation.text)
                return 0
            }
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }

    private static func show(_ listing: CapturesQuestion.Listing, json: Bool) {
        if json {
            print(listing.json)
            return
        }
        if let notice = listing.presence.notice { printError("tunnelvision: \(notice)") }
        if listing.rows.isEmpty { print(CapturesPresentation.emptyState) }
        for row in listing.rows {
            let time = row.lastWritten.map(UTCTimestamp.iso8601) ?? "-"
            print("\(String(row.sequence).leftPadded(to: 6))  \(row.name)  \(row.size.leftPadded(to: 10))  \(time)"
                  + (row.isRecording ? "  recording" : "") + (row.holdsEvidence == true ? "  audit evidence" : ""))
        }
        print(CapturesPresentation.footer(files: listing.files, sizeLimit: (try? listing.settings.get())?.maxCaptureSize))
        for line in listing.headroom.lines { print(line) }
    }

    private static func show(_ removal: CapturesQuestion.Removal, json: Bool) {
        if json {
            print(removal.json)
            return
        }
        if let notice = removal.presence.notice { printError("tunnelvision: \(notice)") }
        for sequence in removal.deleted { print("deleted capture \(sequence)") }
        if !removal.deleted.isEmpty { print(CapturesPresentation.deletionNote) }
        for (_, reason) in removal.failed { printError("tunnelvision: \(reason)") }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
