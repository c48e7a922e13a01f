import Foundation

/// The evidence bundle's fixed names (audit.md § Evidence bundle): the one place each is stated.
public enum EvidenceBundleFormat {
    /// The format version every document of the bundle records.
    public static let version = 1

    /// Each document's `format`, so a reader knows what it holds without its file name.
    public static let sessionDocument = "tunnelvision.evidence.session"
    public static let flowsDocument = "tunnelvision.evidence.flows"
    public static let findingsDocument = "tunnelvision.evidence.findings"
    public static let manifestDocument = "tunnelvision.evidence.manifest"

    /// The seven files of a bundle.
    public static let sessionFile = "session.json"
    public static let flowsFile = "flows.json"
    public static let flowsCSVFile = "flows.csv"
    public static let findingsFile = "findings.json"
    public static let captureFile = "capture.pcapng"
    public static let captureDescriptionFile = "capture.json"
    public static let manifestFile = "manifest.json"

    /// Every file of a bundle but the manifest, in the order an export writes them.
    public static let documentFiles = [sessionFile, flowsFile, flowsCSVFile, findingsFile, captureFile, captureDescriptionFile]

    /// `tunnelvision-evidence-session-<id>-<yyyyMMdd-HHmmss>` (UTC, the export's instant): the
    /// zip's name without `.zip`, and the folder inside it.
    public static func bundleName(sessionID: Int64, exportedAt: Date) -> String {
        var writer = ASCIIWriter(capacity: 64)
        writer.append("tunnelvision-evidence-session-")
        writer.append("\(sessionID)")
        writer.append(UInt8(ascii: "-"))
        let seconds = exportedAt.timeIntervalSince1970.rounded(.down)
        SequencedFileName.appendTime(secondsSince1970: seconds.isFinite && abs(seconds) < 9e15 ? Int64(seconds) : 0, to: &writer)
        return writer.string
    }

    /// The archive's extension.
    public static let archiveExtension = ".zip"
}
