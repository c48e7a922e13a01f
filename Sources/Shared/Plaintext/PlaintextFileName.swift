/// The name of a decrypted-content file: `plaintext-<seq 6 digits>-<yyyyMMdd-HHmmss>.tvpt` (UTC).
/// The sequence is its identity (`PlaintextLocation.fileSequence`) and is never reused. Not
/// `.pcap` on purpose: Wireshark must not open it as packets; a `.pcap` name is not one of these.
package enum PlaintextFileName {
    static let shape = SequencedFileName(prefix: "plaintext-", fileExtension: ".tvpt")

    package static func make(sequence: UInt32, nanosecondsSince1970: Int64) -> String {
        shape.make(sequence: sequence, nanosecondsSince1970: nanosecondsSince1970)
    }

    /// The sequence the name carries, or nil when it is not a decrypted-content file's name.
    package static func sequence(in name: String) -> UInt32? { shape.sequence(in: name) }

    package static func startSecondsSince1970(in name: String) -> Int64? { shape.startSecondsSince1970(in: name) }
}
