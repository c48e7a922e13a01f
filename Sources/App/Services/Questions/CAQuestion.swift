#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The local CA's questions (`tunnelvision ca create | show | export | remove`, and the web app's
/// certificate set-up): what there is, making one, handing out its certificate, and removing it —
/// inspection turned off first, the CA left as it is when that cannot be saved.
package struct CAQuestion: Sendable {
    package var dataDirectory: String?
    /// The settings the removal turns inspection off in; the data directory's own by default.
    package var settings: SettingsStore
    package var now: @Sendable () -> Date

    package init(dataDirectory: String? = nil, settings: SettingsStore? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        self.dataDirectory = dataDirectory
        self.settings = settings ?? SettingsStore(dataDirectory: HistoryAccess.dataDirectory(override: dataDirectory))
        self.now = now
    }

    package var directory: URL { HistoryAccess.dataDirectory(override: dataDirectory) }

    /// What `ca show` reports.
    package func show() -> CAReport {
        let inspection = settings.loadForSession()
        let inspectionSetting: Bool? = inspection.problem == nil ? inspection.settings.tlsInspectionEnabled : nil
        let certificate = DataDirectoryLayout.caCertificate(in: directory).path
        do {
            guard let ca = try LocalCA.load(dataDirectory: directory, now: now) else {
                return CAReport(status: CertificateStatus(authority: .notGenerated), facts: nil,
                                certificatePath: certificate, inspection: inspectionSetting)
            }
            let root = ca.authority.root
            return CAReport(status: .generated(notBefore: root.notBefore, notAfter: root.notAfter, now: now()),
                            facts: CAReport.Facts(ca), certificatePath: certificate, inspection: inspectionSetting)
        } catch {
            return CAReport(status: CertificateStatus(authority: .unknown(error.description)), facts: nil,
                            certificatePath: certificate, inspection: inspectionSetting)
        }
    }

    /// Makes the CA; refused over one that is there or cannot be read (nothing changed).
    package func create() throws(QuestionFailure) -> CAReport {
        let ca: LocalCA
        do { ca = try LocalCA.create(dataDirectory: directory, now: now) } catch { throw QuestionFailure(.failed, error.description) }
        let root = ca.authority.root, reading = settings.loadForSession()
        return CAReport(status: .generated(notBefore: root.notBefore, notAfter: root.notAfter, now: now()), facts: CAReport.Facts(ca),
                        certificatePath: DataDirectoryLayout.caCertificate(in: directory).path,
                        inspection: reading.problem == nil ? reading.settings.tlsInspectionEnabled : nil)
    }

    /// The two ways the root certificate is written out; the key never is.
    package enum ExportFormat: String, Sendable, Equatable {
        case pem, der
    }

    /// Writes the root certificate to `path`. An existing file is refused unless `force`, and
    /// never followed if it is a link (a forced write replaces the link itself).
    package func export(to path: String, format: ExportFormat, force: Bool) throws(QuestionFailure) -> String {
        let bytes = try rootCertificate(format)
        let target = URL(fileURLWithPath: path)
        if PathStatus.of(target.path) != nil, !force {
            throw QuestionFailure(.failed, "\(path) exists; nothing was written. Add --force to replace it, or name another file.")
        }
        if PathStatus.of(target.path)?.kind == .directory {
            throw QuestionFailure(.failed, "\(path) is a directory; name the file to write")
        }
        do {
            // A temporary file beside it (O_EXCL), renamed over the name: a link there is replaced,
            // never written through.
            try AtomicFile.replace(target, with: bytes, mode: 0o644)
        } catch {
            throw QuestionFailure(.failed, "\(error); nothing was written")
        }
        return "wrote the root certificate (\(format.rawValue.uppercased()), \(bytes.count) bytes; not the key) to \(path)"
    }

    /// The root certificate's bytes in `format` (what `export` writes, what the web app downloads).
    func rootCertificate(_ format: ExportFormat) throws(QuestionFailure) -> Data {
        let ca: LocalCA
        do {
            guard let loaded = try LocalCA.load(dataDirectory: directory, now: now) else {
                throw QuestionFailure(.notFound, "there is no local CA in \(directory.path) to export; 'tunnelvision ca create' makes one")
            }
            ca = loaded
        } catch let error as QuestionFailure {
            throw error
        } catch {
            throw QuestionFailure(.failed, "\(error)")
        }
        return format == .pem ? Data(ca.rootCertificatePEM.utf8) : ca.rootCertificateDER
    }

    /// What a removal did.
    package struct Removal: Sendable, Equatable {
        /// Whether there was a CA to remove.
        package let removed: Bool
        /// Whether inspection had to be turned off (it was on).
        package let turnedInspectionOff: Bool

        package var lines: [String] {
            var lines: [String] = []
            if turnedInspectionOff { lines.append("turned TLS inspection off (tls-inspection off)") }
            lines.append(removed ? "removed the local CA: its key and root certificate are deleted"
                                 : "there was no local CA to remove")
            lines.append("Kept: the history and the captures. Copies of the root certificate you exported, and "
                         + "anything you gave them to, still trust it: delete them too. A tunnel already running "
                         + "keeps the CA it started with until it stops.")
            return lines
        }

        package var json: String {
            var out = JSONWriter()
            out.beginObject()
            out.bool("removed", removed)
            out.bool("turnedInspectionOff", turnedInspectionOff)
            out.endObject()
            return out.writer.string
        }
    }

    /// Turns inspection off (saved), then removes the CA. When the setting cannot be read or saved
    /// the CA is not touched.
    package func remove() throws(QuestionFailure) -> Removal {
        var current: AppSettings
        do { current = try settings.load() } catch {
            throw QuestionFailure(.failed, "\(error)\nThe CA was left as it is: inspection has to be known to be off before it goes. "
                                  + "Fix the settings file, or 'tunnelvision settings set tls-inspection off --force'.")
        }
        let wasOn = current.tlsInspectionEnabled
        if wasOn {
            current.tlsInspectionEnabled = false
            do { try settings.save(current) } catch {
                throw QuestionFailure(.failed, "cannot turn TLS inspection off: \(error)\nThe CA was left as it is.")
            }
        }
        do {
            return Removal(removed: try LocalCA.remove(dataDirectory: directory), turnedInspectionOff: wasOn)
        } catch {
            throw QuestionFailure(.failed, (wasOn ? "TLS inspection was turned off, but " : "") + "\(error)")
        }
    }

    /// Remake: remove (inspection off first), then create. Only over a CA that was read.
    package func remake() throws(QuestionFailure) -> (Removal, CAReport) {
        let status = show().status
        guard CertificateSetupPolicy.canRegenerate(status) else {
            if case let .unknown(reason) = status.authority { throw QuestionFailure(.failed, "\(reason)\nNothing was changed.") }
            throw QuestionFailure(.notFound, "there is no local CA to remake; 'tunnelvision ca create' makes one")
        }
        let removal = try remove()
        return (removal, try create())
    }
}
