/// A size as the commands and the web app's server write it: binary units, one decimal from KiB up
/// (1 536 → "1.5 KiB", 4 194 368 → "4.0 MiB"). The web app's page writes these words too: each size
/// it is sent comes with them (`JSONWriter.size`).
package enum ByteCountText {
    package static func binary(_ count: UInt64) -> String {
        if count < 1024 { return "\(count) B" }
        var value = Double(count)
        for unit in ["KiB", "MiB", "GiB", "TiB"] {
            value /= 1024
            if value < 1024 || unit == "TiB" { return String(format: "%.1f", value) + " " + unit }
        }
        return "\(count) B"
    }
}
