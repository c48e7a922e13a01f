/// The capture files a retention pass keeps because they hold audit evidence (audit.md
/// § Retention): a packet of some audit session, open or ended, is in each. Neither limit deletes
/// them until that session (or its project) is deleted. The file being recorded, and any newer,
/// are not among them: those are kept for being recorded, evidence or not.
package struct KeptEvidence: Sendable, Equatable {
    /// Oldest first.
    package let files: [UInt32]
    /// What they hold.
    package let bytes: UInt64

    package init(files: [UInt32], bytes: UInt64) {
        self.files = files
        self.bytes = bytes
    }

    /// No file holds evidence (or none was looked at: a pass that deleted nothing for want of a listing).
    package static let none = KeptEvidence(files: [], bytes: 0)
}
