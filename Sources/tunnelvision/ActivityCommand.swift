import Foundation
import App
import Shared

/// `tunnelvision activity`: the timeline's activity axis, drawn in the terminal.
enum ActivityCommand {
    struct Request: Equatable {
        var dataDirectory: String?
        var json = false
        var from: Date?
        var to: Date?
        var bars: Int?
    }

    static let barRange = 2...500

    static let help = """
    tunnelvision activity [--data-dir D] [--json] [--from T --to T] [--bars N]

    Draws how many packets the history holds over time, one row per bar: when the bar starts (UTC),
    its count, and a bar of blocks scaled to the busiest. Counts every connection's packets (the
    filters of 'tunnelvision flows' do not apply). The bar width is the finest of 1 s, 5 s, 15 s,
    1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h, 1 day, 1 week that fits the stretch in the bars
    (whole days past that); bars start at whole multiples of their width (UTC), so a stretch is
    widened to whole bars.

    --from T --to T  only this stretch (zoom in)
    --bars N         at most N bars (default 48, from 2 to 500)
    --json           one JSON object: {"bucketSeconds", "span" {"from", "to"} (null when no packet is
                     stored), "bars": [{"start", "seconds", "packets", "canZoom" (whether the bar
                     can be shown finer)}], "totalPackets", "busiest", "ignoresFilters": true}
    T is \(HistoryTimeInput.accepted).

    Exit status 1 when the history cannot be read, 2 on a usage error.
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var request = Request(json: json)
        let now = Date()
        var options = OptionCursor(command: "activity", arguments: arguments, now: now)
        func value(_ option: String) throws(Invocation.UsageError) -> String { try options.value(option) }
        func instant(_ option: String) throws(Invocation.UsageError) -> Date { try options.instant(option) }
        while let option = options.current {
            switch option {
            case "--data-dir": request.dataDirectory = try value(option)
            case "--from": request.from = try instant(option)
            case "--to": request.to = try instant(option)
            case "--bars":
                let text = try value(option)
                guard let bars = Int(text), barRange.contains(bars) else {
                    throw Invocation.UsageError(message: "activity: --bars needs a number from \(barRange.lowerBound) to \(barRange.upperBound)")
                }
                request.bars = bars
            default:
                throw Invocation.UsageError(message: "activity: unexpected \(option)")
            }
            options.advance()
        }
        if (request.from == nil) != (request.to == nil) {
            throw Invocation.UsageError(message: "activity: give --from and --to together (or neither, for the whole history)")
        }
        if let from = request.from, let to = request.to, from > to {
            throw Invocation.UsageError(message: "activity: --from is after --to")
        }
        return request
    }

    static func run(_ request: Request) async -> Int32 {
        let store: FlowStore
        do {
            store = try HistoryAccess.openStore(dataDirectory: request.dataDirectory)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        var policy = HistoryPolicy.default
        if let bars = request.bars { policy.axisBars = bars }
        let range = request.from.flatMap { from in request.to.map { from...$0 } }
        let axis: ActivityAxis
        do {
            axis = try await HistoryReader(store: store, policy: policy).activity(in: range)
        } catch {
            await store.close()
            printError("tunnelvision: \(error)")
            return 1
        }
        await store.close()
        let chart = ActivityChart(axis: axis, requested: range, maxBars: policy.axisBars)
        print(request.json ? chart.json() : chart.text())
        return 0
    }
}
