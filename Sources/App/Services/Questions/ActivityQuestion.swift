import Foundation
import Shared

/// The activity axis's question (`tunnelvision activity`, `GET /api/activity`): the history's
/// packets counted in bars over a stretch (the whole history by default), ignoring any filter.
package struct ActivityQuestion: Sendable, Equatable {
    package var dataDirectory: String?
    package var from: Date?
    package var to: Date?
    package var bars: Int?
    /// The zone whose days decide whether the axis's instants carry their date (`--zone`,
    /// `StretchClock`); nil for the machine's.
    package var zone: TimeZone?

    static let barRange = 2...500

    package init(dataDirectory: String? = nil, from: Date? = nil, to: Date? = nil, bars: Int? = nil) {
        self.dataDirectory = dataDirectory
        self.from = from
        self.to = to
        self.bars = bars
    }

    /// Reads the options of `activity` (`--json` aside); relative times count back from `now`.
    package static func parse(_ arguments: [String], now: Date) throws(QuestionFailure) -> ActivityQuestion {
        var question = ActivityQuestion()
        var options = QuestionOptions(command: "activity", arguments: arguments, now: now)
        while let option = options.current {
            switch option {
            case "--data-dir": question.dataDirectory = try options.value(option)
            case "--zone": question.zone = try QuestionOptions.zone(try options.value(option), command: "activity")
            case "--from": question.from = try options.instant(option)
            case "--to": question.to = try options.instant(option)
            case "--bars":
                let text = try options.value(option)
                guard let bars = Int(text), barRange.contains(bars) else {
                    throw .usage("activity: --bars needs a number from \(barRange.lowerBound) to \(barRange.upperBound)")
                }
                question.bars = bars
            default:
                throw .usage("activity: unexpected \(option)")
            }
            options.advance()
        }
        if (question.from == nil) != (question.to == nil) {
            throw .usage("activity: give --from and --to together (or neither, for the whole history)")
        }
        if let from = question.from, let to = question.to, from > to {
            throw .usage("activity: --from is after --to")
        }
        return question
    }

    /// The stretch asked for; nil for the whole history.
    package var range: ClosedRange<Date>? { from.flatMap { from in to.map { from...$0 } } }

    package func answer() async throws(QuestionFailure) -> ActivityChart {
        var policy = HistoryPolicy.default
        if let bars { policy.axisBars = bars }
        let range = range
        return try await HistoryAccess.reading(dataDirectory) { store throws(QuestionFailure) in
            do {
                let axis = try await HistoryReader(store: store, policy: policy).activity(in: range)
                return ActivityChart(axis: axis, requested: range, maxBars: policy.axisBars, zone: zone ?? .current)
            } catch {
                throw QuestionFailure(.failed, "\(error)")
            }
        }
    }
}
