import Foundation
import Shared

/// The history `tvlab bench ui` measures the web app on: filled once by `HistoryBenchFill` into a
/// directory, with a note beside it (`tvlab-bench-ui.txt`: flows, packets, the inspected flow's
/// id) so a later run reuses it instead of spending minutes filling it again.
struct UIBenchHistory: Equatable {
    let flows: Int
    let packets: Int
    let inspectedFlowID: Int64
    var reused = false

    static let noteName = "tvlab-bench-ui.txt"

    /// The note's text: `key value` lines.
    var note: String { "flows \(flows)\npackets \(packets)\ninspectedFlowID \(inspectedFlowID)\n" }

    /// The note read back; nil when it is not one this bench wrote.
    static func parse(note: String) -> UIBenchHistory? {
        var values: [String: Int64] = [:]
        for line in note.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int64(parts[1]) else { return nil }
            values[String(parts[0])] = value
        }
        guard let flows = values["flows"], let packets = values["packets"], let id = values["inspectedFlowID"] else { return nil }
        return UIBenchHistory(flows: Int(flows), packets: Int(packets), inspectedFlowID: id, reused: true)
    }

    /// `directory`'s history when its note says it holds `flows` and `packets`; else fills it
    /// (it must be missing or empty: a directory with something else in it is never written into).
    static func fillOrReuse(_ directory: String, flows: Int, packets: Int) async throws(Failure) -> UIBenchHistory {
        let notePath = directory + "/" + noteName
        if let text = try? String(contentsOfFile: notePath, encoding: .utf8), let kept = parse(note: text) {
            guard kept.flows == flows, kept.packets == packets else {
                throw Failure("\(directory) holds a history of \(kept.flows) connections and \(kept.packets) packets, not \(flows) and "
                              + "\(packets); give those numbers, or another --data-dir")
            }
            Console.progress("reusing the history in \(directory) (\(flows) connections)")
            return kept
        }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard contents.isEmpty else {
            throw Failure("\(directory) is not empty and holds no \(noteName); give a missing or empty directory to fill")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            Console.progress("filling \(directory) with \(flows) connections and \(packets) packets (FlowStore.write; minutes)…")
            let (store, written) = try await HistoryBenchFill(flows: flows, packets: packets)
                .write(into: URL(fileURLWithPath: directory), progress: Console.progress)
            await store.close()
            Console.progress(String(format: "  filled in %.1f s", written.seconds))
            let filled = UIBenchHistory(flows: flows, packets: packets, inspectedFlowID: written.inspectedFlowID)
            try filled.note.write(toFile: notePath, atomically: true, encoding: .utf8)
            return filled
        } catch {
            throw (error as? Failure) ?? Failure("cannot fill the history in \(directory): \(error)")
        }
    }
}
