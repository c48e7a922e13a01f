/// One resource record of the answer section (RFC 1035 §4.1.3):
/// NAME · TYPE · CLASS · TTL (4) · RDLENGTH (2) · RDATA.
package struct DNSResourceRecord: Sendable, Hashable {
    /// The owner: the name the record is about.
    package var name: DNSName
    package var type: DNSRecordType
    package var recordClass: DNSRecordClass
    /// Seconds the answer may be cached, as sent (RFC 2181 §8 caps it at 2³¹ − 1; the map clamps).
    package var ttl: UInt32
    package var data: DNSRecordData

    package init(name: DNSName, type: DNSRecordType, recordClass: DNSRecordClass = .internet, ttl: UInt32,
                data: DNSRecordData) {
        self.name = name
        self.type = type
        self.recordClass = recordClass
        self.ttl = ttl
        self.data = data
    }
}
