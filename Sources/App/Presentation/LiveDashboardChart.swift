/// One sense of the throughput as terminal rows of block characters: each column a sample, each
/// row eight levels (▁ … █), scaled to the window's busiest sample. Any sample above zero shows at
/// least one level, so a trickle is never drawn as silence; zero is a blank.
package enum LiveDashboardChart {
    static let levels: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// `height` rows, top first, each `values.count` characters wide.
    package static func rows(_ values: [UInt64], height: Int) -> [String] {
        guard height > 0 else { return [] }
        let peak = values.max() ?? 0
        let steps = UInt64(height * 8)
        let filled: [UInt64] = values.map { value in
            guard value > 0, peak > 0 else { return 0 }
            return max(1, UInt64((Double(value) / Double(peak) * Double(steps)).rounded()))
        }
        return (0..<height).map { row in
            let base = UInt64((height - 1 - row) * 8)
            return String(filled.map { level in levels[Int(min(8, level > base ? level - base : 0))] })
        }
    }
}
