#if canImport(Glibc)
import Glibc
#endif
import Foundation
import App
import AppLinux
import Shared

/// `tunnelvision stats [--data-dir D] [--json]`: asks the running tunnel for its counters over
/// the control socket.
enum StatsCommand {
    static func run(dataDirectory override: String?, json: Bool) -> Int32 {
        let directory = HistoryAccess.dataDirectory(override: override)
        let response: ControlResponse
        do {
            response = try TunnelControlChannel(dataDirectory: directory).send(.stats)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        guard case .stats(let stats) = response else {
            printError("tunnelvision: the tunnel answered \(String(decoding: ControlChannel.encode(response), as: UTF8.self))")
            return 1
        }
        if json {
            print(String(decoding: ControlChannel.encode(response), as: UTF8.self))
        } else {
            print(TunnelStatsReport(stats).text)
        }
        return 0
    }
}
