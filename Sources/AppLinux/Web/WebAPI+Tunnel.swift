import App
import Foundation
import Shared

extension WebAPI {
    /// The API as `tunnelvision ui` serves it: the tunnel asked over the data directory's control
    /// socket, `/api/live/now` read from the feed whose lines the server pushes to `/api/live`.
    package init(dataDirectory: URL, liveFeed: WebLiveFeed) {
        let manager = LinuxServiceManager(dataDirectory: dataDirectory)
        let monitoring = MonitoringControl(manager: manager, dataDirectory: dataDirectory.path,
                                           report: { () throws(TunnelControlError) in try manager.report() },
                                           runRecording: { TunnelControl.channel.presence(in: dataDirectory) == .live },
                                           chosenTarget: { try? SettingsStore(dataDirectory: dataDirectory).load().monitoringTarget })
        self.init(dataDirectory: dataDirectory, tunnel: .channel, liveLine: { await liveFeed.current() }, monitoring: monitoring)
    }
}
