import Foundation
import App
import Shared

/// `tunnelvision export [--csv|--har] [FILTERS] [--sort KEY] [--data-dir D] [-o FILE|-] [--force] [--summary] [--json]`: the shell around
/// `FlowExporter` — open the history for reading, choose the file, export, say what was written.
enum ExportCommand {
    struct Request: Equatable {
        var question: ExportQuestion
        var json = false
    }

    static let help = """
    tunnelvision export [--csv | --har] [FILTERS] [--sort KEY[:asc|desc]] [--data-dir D]
                        [-o FILE|-] [--force] [--summary] [--json]

    Writes the whole history (or what FILTERS keep) as one JSON file: for each connection its
    protocol, both ends as stored ("peers") and split into "local" and "remote" (null when that
    cannot be told), its Community ID ("communityID", as 'tunnelvision help flows' says), its TLS
    fingerprints ("fingerprints": JA4, JA3, JA3S, as 'tunnelvision help flows' says), its name
    and where the name came from (sni|quic|proxy|dns|dnsQuery), the target of a proxy request that
    opened it ("proxy"), what a DNS connection asked and how it was answered ("dns") and whether it
    carries encrypted DNS ("encryptedDNS"), all as 'tunnelvision help flows' says, first and last
    seen (UTC), bytes sent and
    received, packets, encryption status (plaintext|encrypted|inspected|notInspectable|
    inspectionFailed) and, when it was not inspected or inspection broke it, why
    ("inspectionReason", as 'tunnelvision help flows' lists them, and "inspectionDetail"); for an
    inspected connection what the app and TunnelVision's certificate negotiated ("leafTLS") and how
    the real server ended it ("serverEnding"); the program behind it ("program"), as 'tunnelvision
    help flows' says.
    Metadata only — the file says so in its "contents" field; the packets are in the captures.
    At most the 20 000 most recent connections (with --sort, the first 20 000 in its order): when
    the history holds more, the file and this command say "truncated".

    --csv     the same facts as CSV (RFC 4180, a header line, CRLF): id, session, protocol, host,
              nameSource, localAddress, localPort, remoteAddress, remotePort, firstSeen, lastSeen
              (UTC), durationSeconds, bytesOut, bytesIn, packets, tlsStatus, inspectionReason,
              program. Goes to D/exports/connections.csv.
    --har     the requests and responses of inspected connections whose decrypted content was
              kept, as HAR 1.2 (browsers' developer tools and proxies open it): HTTP/1.1 and
              HTTP/2, headers as sent, bodies decoded from gzip, deflate and br. Times are each
              connection's first packet (not measured per request). Goes to
              D/exports/connections.har; a connection whose content cannot be read is counted
              and said, never left out unsaid.
    FILTERS   the options of 'tunnelvision flows' that choose connections: --search QUERY (the
              Timeline's search: host:, port:, proto:, status:, program:, http:, ja4:, ja3:,
              ja3s:, an address or CIDR, - to negate), --protocol, --status, --reason, --program, --since, --until. The JSON
              file's "scope" says what they kept.
    --sort KEY[:asc|desc]
              the order of 'tunnelvision flows --sort' (the Timeline's columns), most recent
              first without it; the JSON file's "scope" says it.

    The file goes to D/exports/connections.json (mode 0600, in a 0700 folder), replacing the
    previous export. It is written beside its place and renamed over it, so a failure leaves
    the previous export as it was and no half file.
    -o FILE   write it there instead. A file that is not an earlier export is left alone
              unless --force is given; a symbolic link is never followed.
    -o -      write the document to standard output.
    --summary write nothing; say what the JSON export of the whole history would hold (it
              takes no format, filter or order): the connections (counted in the history) and its size — to the byte for up to \(FlowExportEstimate.sampleSize) connections,
              past that "about", estimated from the most recent \(FlowExportEstimate.sampleSize) entries
              (the web app's Export asks this before handing the file over).
    --json    print what was written (or, with --summary, would be) as JSON: {"path",
              "connections", "bytes", "bytesEstimated", "truncated", "historyConnections",
              "requests" (HAR's, else null), "unreadableContent"};
              "bytesEstimated" is true only for a --summary's estimate.
    Exit status 1 when nothing could be exported (the history cannot be read, the file cannot
    be written or is not an earlier export), 2 on a usage error.

    \(JSONSizeHelp.paragraph)
    """

    /// The arguments after `export` (`--json` already taken out by `Invocation`).
    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        do {
            return Request(question: try ExportQuestion.parse(arguments, json: json), json: json)
        } catch {
            throw Invocation.UsageError(message: error.message)
        }
    }

    static func run(_ request: Request) async -> Int32 {
        let question = request.question
        do throws(QuestionFailure) {
            if question.summaryOnly {
                let summary = try await question.summary()
                print(request.json ? summary.json : summary.lines.joined(separator: "\n"))
                return 0
            }
            guard question.output == .stream else {
                let summary = try await question.export()
                print(request.json ? summary.json : summary.lines.joined(separator: "\n"))
                return 0
            }
            var output = StandardOutput()
            let summary = try await question.stream { bytes throws(FlowExportError) in
                do throws(StandardOutput.OutputError) { try output.write(bytes) } catch { throw .writeFailed(error.description) }
            }
            // Standard output holds the document; only a cut export is worth a word beside it.
            if let truncation = summary.truncation { printError("tunnelvision: \(truncation)") }
            return 0
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }
}
