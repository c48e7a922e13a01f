import Foundation
import FuzzSupport
import Shared

/// One input: the bytes of `settings.json`, loaded through a `SettingsStore` whose reading closure
/// returns them. The store answers settings or `.corruptData`, never traps or reports the store
/// unavailable; and settings it read, saved (`SettingsStore.encode`) and loaded again, are the
/// same settings and encode to the same bytes — so a file the tunnel reads survives a save.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let stored = FuzzInput(data, size).restData
    let settings: AppSettings
    do {
        settings = try store(holding: stored).load()
    } catch {
        guard case .corruptData = error else { fatalError("bytes in hand read as \(error)") }
        return 0
    }
    let saved = SettingsStore.encode(settings)
    invariant(saved.last == UInt8(ascii: "\n"), "the stored form does not end its line")
    let reloaded: AppSettings
    do {
        reloaded = try store(holding: saved).load()
    } catch {
        fatalError("saved settings do not load: \(error)")
    }
    invariant(reloaded == settings, "\(settings) saved and loaded is \(reloaded)")
    invariant(SettingsStore.encode(reloaded) == saved, "encoding is not stable")
    return 0
}

private func store(holding bytes: Data) -> SettingsStore {
    SettingsStore(location: "fuzz input", reading: { bytes }, writing: { _ in })
}
