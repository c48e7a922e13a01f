import Foundation
import App
import Shared

/// `tunnelvision activity`: the timeline's activity axis, drawn in the terminal.
enum ActivityCommand {
    struct Request: Equatable {
        var question: ActivityQuestion
        var json = false
    }

    static let help = """
    tunnelvision activity [--data-dir D] [--json] [--from T --to T] [--bars N] [--zone Z]

    Draws how many packets the history holds over time, one row per bar: when the bar starts (UTC),
    its count, and a bar of blocks scaled to the busiest. Counts every connection's packets (the
    filters of 'tunnelvision flows' do not apply). The bar width is the finest of 1 s, 5 s, 15 s,
    1 min, 5 min, 15 min, 1 h, 3 h, 6 h, 12 h, 1 day, 1 week that fits the stretch in the bars
    (whole days past that); bars start at whole multiples of their width (UTC), so a stretch is
    widened to whole bars.

    --from T --to T  only this stretch (zoom in)
    --bars N         at most N bars (default 48, from 2 to 500)
    --zone Z         the time zone whose days decide --json's "clock" (default: this machine's)
    --json           one JSON object: {"clock" (time when the whole span is today in --zone's
                     days, else date: whether a screen writes its instants with their date),
                     "bucketSeconds", "span" {"from", "to"} (null when no packet is
                     stored), "bars": [{"start", "seconds", "packets", "canZoom" (whether the bar
                     can be shown finer)}], "totalPackets", "busiest", "ignoresFilters": true}
    T is \(HistoryTimeInput.accepted).

    Exit status 1 when the history cannot be read, 2 on a usage error.
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        do {
            return Request(question: try ActivityQuestion.parse(arguments, now: Date()), json: json)
        } catch {
            throw Invocation.UsageError(message: error.message)
        }
    }

    static func run(_ request: Request) async -> Int32 {
        do {
            let chart = try await request.question.answer()
            print(request.json ? chart.json(now: Date()) : chart.text())
            return 0
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }
}
