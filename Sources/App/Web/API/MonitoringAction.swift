/// What the Dashboard asks of the monitoring service (`/api/monitoring…`): its state, Start (or
/// Try again) and Stop — `status`, `up` and `down`, through the monitoring control.
package enum MonitoringAction: Sendable, Equatable {
    case show
    case start
    case stop
}
