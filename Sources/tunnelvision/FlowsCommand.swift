import Foundation
import App
import Shared

/// `tunnelvision flows`: the timeline — the history's connections newest first, a page at a time.
enum FlowsCommand {
    struct Request: Equatable {
        var dataDirectory: String?
        var json = false
        var filter = HistoryFilter.none
        var limit: Int?
        var after: FlowCursor?
    }

    static let limitRange = 1...1_000

    static let help = """
    tunnelvision flows [--data-dir D] [--json] [--search TEXT] [--protocol tcp|udp|icmp|icmpv6|N,…]
                       [--status plaintext|encrypted|inspected|notInspectable,…] [--since T] [--until T]
                       [--limit N] [--after CURSOR]

    Lists the connections the history holds, most recently active first, one a line: its id (for
    'tunnelvision flow ID'), when it was last active (UTC), the host — its name and where the name
    came from (sni: the connection announced it; quic: a QUIC Initial did; dns: the DNS answer for
    its address), else its address —, the remote port, the protocol, bytes received and sent, packets,
    how long it lasted and whether it was encrypted.

    --search TEXT    connections whose name, other names or remote address contain TEXT (any case)
    --protocol P     only these protocols (comma-separated or repeated; icmp means ICMP and ICMPv6)
    --status S       only these encryption statuses (comma-separated or repeated)
    --since T        only connections still active at or after T
    --until T        only connections that had begun by T
    T is \(HistoryTimeInput.accepted).
    --limit N        connections a page (default 100, at most 1000)
    --after CURSOR   the page after the one that ended at CURSOR (the footer prints the command)
    --json           one JSON object: {"flows": [{"id", "protocol", "local", "remote" ({"address",
                     "port"}, null when the ends could not be told apart), "peers" (both ends as
                     stored), "name", "nameSource" (sni|quic|dns|null), "otherNames", "firstSeen",
                     "lastSeen" (UTC), "bytesIn", "bytesOut", "packets", "durationSeconds",
                     "tlsStatus"}], "bursts", "scanned", "hasMore", "next" (a cursor or null),
                     "keptLooking", "historyEmpty", "filter"}
                     "bursts" lists the page's bursts, each flow of which is still in "flows": [{"ids"
                     (in the flows' order), "count", "host", "nameSource", "port", "protocol",
                     "tlsStatus", "firstSeen", "lastSeen", "startedWithinSeconds", "bytesIn",
                     "bytesOut", "packets", "summary" (the sentence the text prints)}]

    A burst — \(TimelineBursts.minimumCount) or more consecutive connections to one host (name, else address) and port,
    of one protocol and status, each started within \(Int(TimelineBursts.maximumGap)) s of the one before — is one row: its
    id column holds the ids it spans, and a line under the table opens one ('tunnelvision flow ID').
    Each page is grouped on its own: a burst the page's end cuts shows what this page holds of it.

    A page reads at most 8 batches of connections: a filter that matches few may find fewer than a
    page, and then the footer says it kept looking, how many it scanned and how to look further.
    Exit status 1 when the history cannot be read, 2 on a usage error.
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var request = Request(json: json)
        var since: Date?, until: Date?
        let now = Date()
        var options = OptionCursor(command: "flows", arguments: arguments, now: now)
        func value(_ option: String) throws(Invocation.UsageError) -> String { try options.value(option) }
        func instant(_ option: String) throws(Invocation.UsageError) -> Date { try options.instant(option) }
        while let option = options.current {
            switch option {
            case "--data-dir": request.dataDirectory = try value(option)
            case "--search": request.filter.searchText = try value(option)
            case "--protocol":
                for word in try value(option).split(separator: ",") {
                    guard let protocols = protocols(named: String(word)) else {
                        throw Invocation.UsageError(message: "flows: unknown protocol '\(word)': give tcp, udp, icmp, icmpv6 or a number 0-255")
                    }
                    request.filter.protocols.formUnion(protocols)
                }
            case "--status":
                for word in try value(option).split(separator: ",") {
                    guard let status = HistoryFlowWording.status(identifier: String(word)) else {
                        throw Invocation.UsageError(message: "flows: unknown status '\(word)': give plaintext, encrypted, inspected or notInspectable")
                    }
                    request.filter.tlsStatuses.insert(status)
                }
            case "--since": since = try instant(option)
            case "--until": until = try instant(option)
            case "--limit":
                let text = try value(option)
                guard let limit = Int(text), limitRange.contains(limit) else {
                    throw Invocation.UsageError(message: "flows: --limit needs a number from \(limitRange.lowerBound) to \(limitRange.upperBound)")
                }
                request.limit = limit
            case "--after":
                let text = try value(option)
                guard let cursor = HistoryCursorText.parse(text) else {
                    throw Invocation.UsageError(message: "flows: --after '\(text)' is not a cursor: copy the one the footer of the previous page printed")
                }
                request.after = cursor
            default:
                throw Invocation.UsageError(message: "flows: unexpected \(option)")
            }
            options.advance()
        }
        if since != nil || until != nil {
            let lower = since ?? .distantPast, upper = until ?? .distantFuture
            guard lower <= upper else { throw Invocation.UsageError(message: "flows: --since is after --until") }
            request.filter.dateRange = lower...upper
        }
        return request
    }

    /// `icmp` is both ICMPs: a person asking for pings means either family's.
    static func protocols(named word: String) -> Set<IPProtocolNumber>? {
        switch word.lowercased() {
        case "tcp": [.tcp]
        case "udp": [.udp]
        case "icmp": [.icmp, .icmpv6]
        case "icmpv6": [.icmpv6]
        default: UInt8(word).map { [IPProtocolNumber(rawValue: $0)] }
        }
    }

    static func run(_ request: Request) async -> Int32 {
        let store: FlowStore
        do {
            store = try HistoryAccess.openStore(dataDirectory: request.dataDirectory)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        if let cursor = request.after {
            let known: Bool
            do {
                known = try await store.flow(id: cursor.id) != nil
            } catch {
                await store.close()
                printError("tunnelvision: \(HistoryError(error))")
                return 1
            }
            guard known else {
                await store.close()
                printError("tunnelvision: the cursor \(HistoryCursorText.text(cursor)) names connection \(cursor.id), which is "
                           + "not in the history (removed by retention or a clear, or mistyped): run 'tunnelvision flows' "
                           + "without --after to start from the newest")
                return 1
            }
        }
        var policy = HistoryPolicy.default
        if let limit = request.limit { policy.pageSize = limit }
        let reader = HistoryReader(store: store, policy: policy)
        await reader.apply(request.filter, after: request.after)
        let snapshot = await reader.snapshot
        await store.close()
        if case .failed(let reason) = snapshot.state {
            printError("tunnelvision: \(reason)")
            return 1
        }
        let listing = TimelineListing(snapshot: snapshot, query: TimelineListing.Query(
            dataDirectory: request.dataDirectory, filter: request.filter, limit: request.limit, after: request.after),
            pageSize: policy.pageSize)
        print(request.json ? listing.json() : listing.text())
        return 0
    }
}
