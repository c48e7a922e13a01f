/// One entry of the question section (RFC 1035 §4.1.2): QNAME · QTYPE · QCLASS.
public struct DNSQuestion: Sendable, Hashable {
    public var name: DNSName
    public var type: DNSRecordType
    public var recordClass: DNSRecordClass

    public init(name: DNSName, type: DNSRecordType, recordClass: DNSRecordClass = .internet) {
        self.name = name
        self.type = type
        self.recordClass = recordClass
    }
}
