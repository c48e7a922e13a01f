import Foundation

/// The evidence bundle's fixed names (audit.md § Evidence bundle): the one place each is stated.
package enum EvidenceBundleFormat {
    /// The format version every document of the bundle records.
    package static let version = 1

    /// Each document's `format`, so a reader knows what it holds without its file name.
    package static let sessionDocument = "tunnelvision.evidence.session"
    package static let flowsDocument = "tunnelvision.evidence.flows"
    package static let findingsDocument = "tunnelvision.evidence.findings"
    package static let manifestDocument = "tunnelvision.evidence.manifest"

    /// The seven files of a bundle.
    package static let sessionFile = "session.json"
    package static let flowsFile = "flows.json"
    package static let flowsCSVFile = "flows.csv"
    package static let findingsFile = "findings.json"
    package static let captureFile = "capture.pcapng"
    package static let captureDescriptionFile = "capture.json"
    package static let manifestFile = "manifest.json"

    /// Every file of a bundle but the manifest, in the order an export writes them.
    package static let documentFiles = [sessionFile, flowsFile, flowsCSVFile, findingsFile, captureFile, captureDescriptionFile]

    /// `tunnelvision-evidence-session-<id>-<yyyyMMdd-HHmmss>` (UTC, the export's instant): the
    /// zip's name without `.zip`, and the folder inside it.
    package static func bundleName(sessionID: Int64, exportedAt: Date) -> String {
        var writer = ASCIIWriter(capacity: 64)
        writer.append("tunnelvision-evidence-session-")
        writer.append("\(sessionID)")
        writer.append(UInt8(ascii: "-"))
        let seconds = exportedAt.timeIntervalSince1970.rounded(.down)
        SequencedFileName.appendTime(secondsSince1970: seconds.isFinite && abs(seconds) < 9e15 ? Int64(seconds) : 0, to: &writer)
        return writer.string
    }

    /// The archive's extension.
    package static let archiveExtension = ".zip"
}
