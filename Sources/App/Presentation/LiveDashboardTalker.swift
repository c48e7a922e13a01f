import Foundation
import Shared

/// One busy host as the dashboard lists it: the name it is shown by and the connection its row
/// opens. A talker is a host, but a row that opens should open what it names: the connection that
/// last moved bytes with the host (what is happening now) when the history named it, else the
/// connection that gave the host its name, else that latest connection unnamed. Nil `flowID`: the
/// history does not hold the connection yet (it writes one a moment after its first packets), so
/// the row opens nothing rather than something else.
package struct LiveDashboardTalker: Sendable, Equatable {
    package let talker: LiveTalker
    package let name: String?
    package let flowID: Int64?

    package init(_ talker: LiveTalker, names: LiveDashboardNames) {
        self.talker = talker
        if let name = names.name(of: talker.latestFlow) {
            (self.name, flowID) = (name, names.flowID(of: talker.latestFlow))
        } else if let host = names.hostName(of: talker.remote) {
            (self.name, flowID) = (host.name, host.flowID)
        } else {
            (self.name, flowID) = (nil, names.flowID(of: talker.latestFlow))
        }
    }
}
