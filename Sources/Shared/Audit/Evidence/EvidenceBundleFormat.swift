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
}
