import Foundation

/// One certificate of a Certificate message as tshark's X.509 dissectors read it (`x509af.*`,
/// `x509if.*`, `x509sat.*`).
package struct TsharkCertificate: Sendable, Equatable {
    /// An attribute of a distinguished name: its type's dotted OID and its value as a string.
    package struct Attribute: Sendable, Equatable {
        package var oid: String
        package var value: String
    }

    /// The RDNs in the order the certificate writes them, each a set of one or more attributes.
    package var subject: [[Attribute]]
    package var issuer: [[Attribute]]
    /// "2027-11-30T12:00:00Z".
    package var notAfter: String

    /// The contract's text of a name: `SHORTNAME=value` in certificate order, RDNs joined by ", ",
    /// the attributes of one RDN by "+", values escaped as RFC 4514 §2.4 says.
    package static func text(of name: [[Attribute]]) -> String {
        name.map { relativeName in
            relativeName.map { "\(shortName(of: $0.oid))=\(escaped($0.value))" }.joined(separator: "+")
        }.joined(separator: ", ")
    }

    /// RFC 4519 §2 and OpenSSL's short names; any other type as its dotted OID (RFC 4514 §2.3).
    static let shortNames: [String: String] = [
        "2.5.4.3": "CN", "2.5.4.4": "SN", "2.5.4.5": "serialNumber", "2.5.4.6": "C", "2.5.4.7": "L",
        "2.5.4.8": "ST", "2.5.4.9": "street", "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.12": "title",
        "2.5.4.13": "description", "2.5.4.15": "businessCategory", "2.5.4.17": "postalCode", "2.5.4.42": "GN",
        "2.5.4.43": "initials", "2.5.4.44": "generationQualifier", "2.5.4.46": "dnQualifier",
        "2.5.4.65": "pseudonym", "2.5.4.97": "organizationIdentifier", "1.2.840.113549.1.9.1": "emailAddress",
        "0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID",
        // EV certificates' jurisdiction (CA/Browser Forum EV Guidelines §9.2.4), as OpenSSL names them
        // (`openssl req -subj "/jurisdictionC=US/…"` is accepted and printed back so).
        "1.3.6.1.4.1.311.60.2.1.1": "jurisdictionL", "1.3.6.1.4.1.311.60.2.1.2": "jurisdictionST",
        "1.3.6.1.4.1.311.60.2.1.3": "jurisdictionC",
    ]

    static func shortName(of oid: String) -> String { shortNames[oid] ?? oid }

    /// RFC 4514 §2.4: `"` `+` `,` `;` `<` `>` `\` always, `#` and space at the start, space at the end.
    static func escaped(_ value: String) -> String {
        var text = ""
        let characters = Array(value)
        for (index, character) in characters.enumerated() {
            switch character {
            case "\"", "+", ",", ";", "<", ">", "\\": text.append("\\")
            case "#" where index == 0: text.append("\\")
            case " " where index == 0 || index == characters.count - 1: text.append("\\")
            default: break
            }
            text.append(character)
        }
        return text
    }
}

extension TsharkCertificate {
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads one `x509af.signedCertificate_element`.
    init(signedCertificate element: [String: Any]) throws {
        subject = try Self.name(TsharkJSON.object(element["x509af.subject_tree"]), "subject")
        issuer = try Self.name(TsharkJSON.object(element["x509af.issuer_tree"]), "issuer")
        let validity = TsharkJSON.object(element["x509af.validity_element"])
        let notAfter = TsharkJSON.object(validity?["x509af.notAfter_tree"])
        if let utc = notAfter?["x509af.utcTime"] as? String {
            self.notAfter = try Self.utcTime(utc)
        } else if let generalized = notAfter?["x509af.generalizedTime"] as? String {
            self.notAfter = try Self.generalizedTime(generalized)
        } else {
            throw Unreadable(description: "no notAfter in \(String(describing: validity))")
        }
    }

    /// `x509if.RDNSequence_item_tree`: one object per RDN, each with one or several
    /// `x509if.RelativeDistinguishedName_item_element`s (the subject's sequence is labelled
    /// `x509af.rdnSequence`, the issuer's `x509if.rdnSequence`; the items are named alike).
    static func name(_ tree: [String: Any]?, _ label: String) throws -> [[Attribute]] {
        let items = TsharkJSON.values("x509if.RDNSequence_item_tree", in: tree)
        guard !items.isEmpty else {
            throw Unreadable(description: "no \(label) name")
        }
        return try items.map { item in
            try TsharkJSON.list((item as? [String: Any])?["x509if.RelativeDistinguishedName_item_element"]).map { element in
                guard let element = element as? [String: Any],
                      let oid = (element["x509if.oid"] ?? element["x509if.id"]) as? String else {
                    throw Unreadable(description: "an attribute of the \(label) without a type")
                }
                let values = stringLeaves(of: element, skipping: ["x509if.oid", "x509if.id"])
                guard values.count == 1 else {
                    throw Unreadable(description: "\(label) attribute \(oid) has values \(values)")
                }
                return Attribute(oid: oid, value: values[0])
            }
        }
    }

    /// The strings under an attribute, skipping a CHOICE's selector (`x509sat.DirectoryString: "4"`,
    /// whose chosen string is in the sibling `…_tree`).
    static func stringLeaves(of object: [String: Any], skipping: Set<String>) -> [String] {
        var found: [String] = []
        for key in object.keys.sorted() where !skipping.contains(key) {
            switch object[key] {
            case let text as String where object[key + "_tree"] == nil: found.append(text)
            case let child as [String: Any]: found += stringLeaves(of: child, skipping: skipping)
            default: break
            }
        }
        return found
    }

    /// `x509af.utcTime`, a string tshark writes as "2028-01-04 20:45:56 (UTC)".
    static func utcTime(_ text: String) throws -> String {
        let parts = text.split(separator: " ")
        guard parts.count == 3, parts[2] == "(UTC)", parts[0].count == 10, parts[1].count == 8 else {
            throw Unreadable(description: "utcTime \(text)")
        }
        return "\(parts[0])T\(parts[1])Z"
    }

    /// `x509af.generalizedTime`, an absolute time tshark writes as "Dec  3, 2052 20:45:56.000000000 UTC".
    static func generalizedTime(_ text: String) throws -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," })
        guard parts.count == 5, parts[4] == "UTC", let month = months.firstIndex(of: String(parts[0])),
              let day = Int(parts[1]), let year = Int(parts[2]), parts[3].count >= 8 else {
            throw Unreadable(description: "generalizedTime \(text)")
        }
        let pad = { (value: Int, width: Int) in String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        return "\(pad(year, 4))-\(pad(month + 1, 2))-\(pad(day, 2))T\(parts[3].prefix(8))Z"
    }
}
