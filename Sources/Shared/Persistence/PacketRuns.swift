/// A batch's packets regrouped by flow — flows in order of first appearance, each flow's packets
/// in their original order — so each flow's packets get consecutive ids and one `packet_runs` row.
struct PacketRuns {
    struct Run: Equatable {
        let flowID: Int64
        /// The run's slice of `order`.
        let members: Range<Int>
    }

    /// Indices into the batch's packets, run after run; orphans left out.
    let order: [Int]
    let runs: [Run]

    /// `flowIDs[i]` is the flow of packet `i`, nil when it has none (an orphan).
    init(flowIDs: [Int64?]) {
        // A stable counting sort by run number, in two passes over flat arrays.
        var runOf = [Int](repeating: -1, count: flowIDs.count)
        var runFlows: [Int64] = []
        var runByFlow: [Int64: Int] = [:]
        var sizes: [Int] = []
        for (index, flowID) in flowIDs.enumerated() {
            guard let flowID else { continue }
            let run: Int
            if let known = runByFlow[flowID] {
                run = known
            } else {
                run = runFlows.count
                runByFlow[flowID] = run
                runFlows.append(flowID)
                sizes.append(0)
            }
            runOf[index] = run
            sizes[run] += 1
        }
        var next = [Int](repeating: 0, count: runFlows.count)
        var runs: [Run] = []
        runs.reserveCapacity(runFlows.count)
        var start = 0
        for (run, flowID) in runFlows.enumerated() {
            next[run] = start
            runs.append(Run(flowID: flowID, members: start..<start + sizes[run]))
            start += sizes[run]
        }
        var order = [Int](repeating: 0, count: start)
        for (index, run) in runOf.enumerated() where run >= 0 {
            order[next[run]] = index
            next[run] += 1
        }
        self.order = order
        self.runs = runs
    }
}
