/// The version every part of TunnelVision reports.
package enum ProductVersion {
    package static let current = "0.1.0"
}
