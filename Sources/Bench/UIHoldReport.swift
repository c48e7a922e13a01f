import Foundation

/// What `bench_ui.py hold` says about one hold of the pages (Tests/Browser/bench_ui.py): one JSON
/// line, said anew every second because stopping the hold takes its browser down with it — the
/// last whole line is the hold's. The live Timeline's applies are the page's own measures
/// (`tunnelvision.timeline.live-apply` in timeline.js), the CPU is /proc's over the hold.
package struct UIHoldReport: Sendable, Equatable, Decodable {
    /// One poll of the live Timeline merged into its list.
    package struct Apply: Sendable, Equatable, Decodable {
        /// When the merge began: the page's performance.now(), ms.
        package let start: Double
        /// Script time of the merge, ms (the answer's JSON already parsed; rendering after it not included).
        package let duration: Double
        /// Rows drawn: new connections and ones that moved.
        package let applied: Int
        /// Rows the poll answered (those unchanged since the last poll are left alone).
        package let received: Int

        package init(start: Double, duration: Double, applied: Int, received: Int) {
            self.start = start
            self.duration = duration
            self.applied = applied
            self.received = received
        }
    }

    package let applies: [Apply]
    /// How long the pages were held (from when they were ready), s.
    package let seconds: Double
    /// CPU the `tunnelvision ui` process used meanwhile, s.
    package let serverCPUSeconds: Double
    /// CPU Chromium and its driver used meanwhile, s.
    package let browserCPUSeconds: Double
    /// CPU the hold's driver used meanwhile (its stream readers and its WebDriver calls), s.
    package let readersCPUSeconds: Double
    /// How long each of the live Timeline's polls took to be answered (`/api/flows?since=…`), ms.
    package let pollAnswers: [Double]
    /// `GET /api/contact` requests the two pages made meanwhile.
    package let contactRequests: Int
    /// `dashboard` events each extra /api/live stream read.
    package let streamEvents: [Int]
    /// What the Dashboard's monitoring title said, each state once.
    package let dashboardStates: [String]

    package init(applies: [Apply], seconds: Double, serverCPUSeconds: Double, browserCPUSeconds: Double = 0,
                 readersCPUSeconds: Double = 0, pollAnswers: [Double] = [], contactRequests: Int = 0, streamEvents: [Int] = [], dashboardStates: [String] = []) {
        self.applies = applies
        self.seconds = seconds
        self.serverCPUSeconds = serverCPUSeconds
        self.browserCPUSeconds = browserCPUSeconds
        self.readersCPUSeconds = readersCPUSeconds
        self.pollAnswers = pollAnswers
        self.contactRequests = contactRequests
        self.streamEvents = streamEvents
        self.dashboardStates = dashboardStates
    }

    /// The last line of `text` that is a whole report (a line cut by the stop is passed over).
    package static func last(in text: String) -> UIHoldReport? {
        for line in text.split(separator: "\n").reversed() {
            if let report = try? JSONDecoder().decode(UIHoldReport.self, from: Data(line.utf8)) { return report }
        }
        return nil
    }

    /// Script time per second of new flows, ms, for each merge that drew rows: its time over the
    /// seconds since the merge before it (the stretch of flows it caught up with). The first merge
    /// of a hold has no stretch and is left out.
    package var millisecondsPerSecondOfFlows: [Double] {
        zip(applies.dropFirst(), applies).compactMap { apply, previous in
            let seconds = (apply.start - previous.start) / 1_000
            return apply.applied > 0 && seconds > 0 ? apply.duration / seconds : nil
        }
    }

    /// The later half of `millisecondsPerSecondOfFlows` (the smaller half for an odd count): the
    /// list grows while the page stays open (up to its loaded rows plus the listing's `liveRowsKept`) and each merge
    /// looks every row up in it, so these say what staying open costs.
    package var laterMillisecondsPerSecondOfFlows: [Double] {
        let all = millisecondsPerSecondOfFlows
        return Array(all.suffix(all.count / 2))
    }
}
