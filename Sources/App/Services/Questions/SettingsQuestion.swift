#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The settings' questions (`tunnelvision settings [set KEY VALUE]`, `/api/settings`): what a tunnel
/// starting now would use, and changing one setting while keeping the others.
package struct SettingsQuestion: Sendable, Equatable {
    package var dataDirectory: String?

    package init(dataDirectory: String? = nil) {
        self.dataDirectory = dataDirectory
    }

    package var store: SettingsStore { SettingsStore(dataDirectory: HistoryAccess.dataDirectory(override: dataDirectory)) }

    /// The settings a tunnel starting now would use, and the problem with the file if it cannot be read.
    package func reading() -> SettingsReading { store.loadForSession() }

    /// What `settings --json` prints: the settings document, newline included.
    package static func json(_ settings: AppSettings) -> String { String(decoding: SettingsStore.encode(settings), as: UTF8.self) }

    /// The sentence (after "tunnelvision: ") for a settings file that cannot be read.
    package static func problemSentence(_ problem: SettingsError) -> String {
        let consequence = "A tunnel started now would use the factory settings shown, so 'run' refuses to start "
            + "until the file is fixed or --no-capture is given."
        if case .corruptData = problem {
            return "\(problem)\nThe file was left as it is. \(consequence) Edit it, or "
                + "'tunnelvision settings set KEY VALUE --force' sets it aside and starts from the factory settings."
        }
        return "\(problem)\n\(consequence)"
    }

    /// `KEY VALUE` as `settings set` reads them, refused with what is valid.
    package static func change(key: String, value: String) throws(QuestionFailure) -> SettingChange {
        do { return try SettingChange.parse(key: key, value: value) } catch { throw .usage("settings set: \(error)") }
    }

    /// What a change did.
    package struct Change: Sendable, Equatable {
        package let change: SettingChange
        /// The settings as saved.
        package let settings: AppSettings
        /// The sentence saying where an unreadable file was set aside (`--force`), if it was.
        package let setAside: String?
        /// What the tunnel running on the data directory made of it, when it was told at once.
        package var tunnel: String? = nil

        /// "retention-age 1w is stored, but not enforced: …" when this build does not honour it.
        package var note: String? { change.support == .enforced ? nil : SettingsQuestion.note(change, change.support, stored: true) }

        /// `settings set KEY VALUE`'s line.
        package var text: String { "\(change.setting.rawValue) \(change.setting.value(in: settings))" }

        /// `settings set KEY VALUE --json`: {"setting", "value", "enforced", "note", "setAside"}.
        package var json: String {
            var out = JSONWriter()
            out.beginObject()
            out.string("setting", change.setting.rawValue)
            out.string("value", change.setting.value(in: settings))
            out.bool("enforced", change.support == .enforced)
            out.string("note", note)
            out.string("setAside", setAside)
            out.string("tunnel", tunnel)
            out.endObject()
            return out.writer.string
        }
    }

    /// Changes one setting and keeps the others. Over a file that cannot be read it refuses
    /// (saving over it would drop whatever it held that this build did not understand) unless
    /// forced, and then the file is first set aside whole, never overwritten. Turning TLS
    /// inspection on is refused, forced or not, while there is no CA that can sign
    /// (`CertificateStatusPolicy.inspectionRefusal`).
    package func set(_ change: SettingChange, force: Bool, now: Date = Date()) throws(QuestionFailure) -> Change {
        if case let .refused(reason) = change.support {
            throw QuestionFailure(.badParameter, "\(change.setting.rawValue) \(change.spelling) is refused: \(reason). Nothing was changed.")
        }
        // Inspection on needs a CA that can sign now (`--force` does not change that: it is for an
        // unreadable settings file); off is always allowed, so it is never locked on.
        if change == .tlsInspection(true),
           let refusal = CertificateStatusPolicy.inspectionRefusal(CAQuestion(dataDirectory: dataDirectory, settings: store,
                                                                              now: { now }).show().status) {
            throw QuestionFailure(.badParameter, "\(change.setting.rawValue) \(change.spelling) is refused: \(refusal). Nothing was changed.")
        }
        let store = store
        var settings: AppSettings
        var setAside: String?
        do {
            settings = try store.load()
        } catch {
            guard case .corruptData = error, force else {
                let advice = if case .corruptData = error {
                    "Nothing was changed. Edit the file, or add --force to set it aside (kept whole, beside it) "
                        + "and start from the factory settings plus this one change."
                } else {
                    "Nothing was changed."
                }
                throw QuestionFailure(.failed, "\(error)\n\(advice)")
            }
            let aside = SetAsideName.path(for: store.location, why: "unreadable", at: now)
            guard rename(store.location, aside) == 0 else {
                throw QuestionFailure(.failed, "cannot set \(store.location) aside as \(aside): \(SystemError.text(errno)). Nothing was changed.")
            }
            setAside = "set the unreadable \(store.location) aside as \(aside)"
            settings = .default
        }
        change.apply(to: &settings)
        do {
            try store.save(settings)
        } catch {
            throw QuestionFailure(.failed, (setAside.map { $0 + "\n" } ?? "") + "\(error)")
        }
        return Change(change: change, settings: settings, setAside: setAside)
    }

    /// `set`, then the change carried into the tunnel running on the data directory when it
    /// takes effect at once (`SettingChange.liveCommand`), with what the tunnel said.
    package func set(_ change: SettingChange, force: Bool, tunnel: TunnelControl, now: Date = Date()) throws(QuestionFailure) -> Change {
        var done = try set(change, force: force, now: now)
        done.tunnel = tell(change, tunnel: tunnel)
        return done
    }

    /// The sentence for what the running tunnel made of `change`; nil when there is nothing to
    /// tell it or no tunnel runs (the next one reads the saved file). A tunnel that cannot be
    /// told is said, never passed over.
    func tell(_ change: SettingChange, tunnel: TunnelControl) -> String? {
        guard let command = change.liveCommand else { return nil }
        let response: ControlResponse
        do {
            response = try tunnel.send(command, in: HistoryAccess.dataDirectory(override: dataDirectory))
        } catch {
            if case .notRunning = error { return nil }
            return "saved, but the running tunnel could not be told (\(error)): it applies when a tunnel next starts"
        }
        switch response {
        case .ok: return "the running tunnel applied it at once"
        case .notRunning: return nil
        case let .failed(reason): return "saved; the running tunnel did not apply it: \(reason)"
        case .stats: return "saved, but the running tunnel's answer was not understood: it applies when a tunnel next starts"
        }
    }

    /// "retention-age 1w is not enforced: …", for a value this build does not honour; `stored`
    /// when it was just saved.
    package static func note(_ value: SettingChange, _ support: SettingSupport, stored: Bool) -> String {
        let named = "\(value.setting.rawValue) \(value.spelling)"
        return switch support {
        case .enforced: "\(named) is enforced"
        case let .storedOnly(reason): "\(named) is \(stored ? "stored, but " : "")not enforced: \(reason)"
        case let .refused(reason): "\(named) is not honoured: \(reason); a tunnel runs as without it"
        }
    }
}
