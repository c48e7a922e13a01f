/// One entry of the question section (RFC 1035 §4.1.2): QNAME · QTYPE · QCLASS.
package struct DNSQuestion: Sendable, Hashable {
    package var name: DNSName
    package var type: DNSRecordType
    package var recordClass: DNSRecordClass

    package init(name: DNSName, type: DNSRecordType, recordClass: DNSRecordClass = .internet) {
        self.name = name
        self.type = type
        self.recordClass = recordClass
    }
}
