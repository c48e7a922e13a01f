import Testing

/// The Community ID spec's published baseline, github.com/corelight/community-id-spec at commit
/// c4ec2bc40d65ddbcbdd642582bf5609797a80772, folder `baseline/`. Nothing here was computed by our
/// code.
///
/// - `deflt`, `seed1`, `nob64`: the files `baseline_deflt.json`, `baseline_seed1.json` and
///   `baseline_nob64.json` (pycommunityid's `community-id-pcap --json` over the spec's
///   `pcaps/combined.pcap.gz`: defaults, `--seed 1`, `--no-base64`), copied as they are but for a
///   line break in place of the space after each object's comma. For ICMP and ICMPv6 their
///   "sport" and "dport" are the type and what Zeek pairs with it: the counterpart type of a
///   request or reply, else the code.
/// - `tables`: the three tables of that folder's README.md (`make-tables.py`), one row for the
///   same tuple in each — the defaults, seed 1, and seed 0 without base64. Their ICMP "ports" are
///   the message's type and code as sent (the echo reply is type 0, code 0).
enum CommunityIDBaseline {
    static let deflt = #"""
        [{"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "fe80::260:97ff:fe07:69ea", "sport": 135, "dport": 136, "communityid": "1:dGHyGvjMfljg6Bppwm3bg0LO8TY="},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "fe80::200:86ff:fe05:80da", "sport": 136, "dport": 135, "communityid": "1:dGHyGvjMfljg6Bppwm3bg0LO8TY="},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "fe80::200:86ff:fe05:80da", "sport": 135, "dport": 136, "communityid": "1:zavyT/cezQr1fmImYCwYnMXbgck="},
        {"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "fe80::260:97ff:fe07:69ea", "sport": 136, "dport": 135, "communityid": "1:zavyT/cezQr1fmImYCwYnMXbgck="},
        {"proto": 58, "saddr": "3ffe:501:1800:2345::2", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 3, "dport": 0, "communityid": "1:2ObVBgIn28oZvibYZhZMBgh7WdQ="},
        {"proto": 58, "saddr": "3ffe:501:410:0:2c0:dfff:fe47:33e", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 1, "dport": 4, "communityid": "1:hLZd0XGWojozrvxqE0dWB1iM6R0="},
        {"proto": 58, "saddr": "3ffe:507:0:1:200:86ff:fe05:80da", "daddr": "3ffe:501:0:1001::2", "sport": 128, "dport": 129, "communityid": "1:+TW+HtLHvV1xnGhV1lv7XoJrqQg="},
        {"proto": 58, "saddr": "3ffe:501:0:1001::2", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 129, "dport": 128, "communityid": "1:+TW+HtLHvV1xnGhV1lv7XoJrqQg="},
        {"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "ff02::2", "sport": 133, "dport": 134, "communityid": "1:hO+sN4H+MG5MY/8hIrXPqc4ZQz0="},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "ff02::1", "sport": 134, "dport": 133, "communityid": "1:pkvHqCL88/tg1k4cPigmZXUtL00="},
        {"proto": 1, "saddr": "192.168.0.89", "daddr": "192.168.0.1", "sport": 8, "dport": 0, "communityid": "1:X0snYXpgwiv9TZtqg64sgzUn6Dk="},
        {"proto": 1, "saddr": "192.168.0.1", "daddr": "192.168.0.89", "sport": 0, "dport": 8, "communityid": "1:X0snYXpgwiv9TZtqg64sgzUn6Dk="},
        {"proto": 1, "saddr": "10.0.0.1", "daddr": "10.0.0.2", "sport": 11, "dport": 0, "communityid": "1:YHxtAirCG//0OzkcVAukqKQN9xM="},
        {"proto": 6, "saddr": "2001:470:e5bf:dead:4957:2174:e82c:4887", "daddr": "2607:f8b0:400c:c03::1a", "sport": 63943, "dport": 25, "communityid": "1:/qFaeAR+gFe1KYjMzVDsMv+wgU4="},
        {"proto": 6, "saddr": "2607:f8b0:400c:c03::1a", "daddr": "2001:470:e5bf:dead:4957:2174:e82c:4887", "sport": 25, "dport": 63943, "communityid": "1:/qFaeAR+gFe1KYjMzVDsMv+wgU4="},
        {"proto": 132, "saddr": "192.168.170.8", "daddr": "192.168.170.56", "sport": 7, "dport": 7, "communityid": "1:MP2EtRCAUIZvTw6MxJHLV7N7JDs="},
        {"proto": 132, "saddr": "192.168.170.56", "daddr": "192.168.170.8", "sport": 7, "dport": 7, "communityid": "1:MP2EtRCAUIZvTw6MxJHLV7N7JDs="},
        {"proto": 6, "saddr": "128.232.110.120", "daddr": "66.35.250.204", "sport": 34855, "dport": 80, "communityid": "1:LQU9qZlK+B5F3KDmev6m5PMibrg="},
        {"proto": 6, "saddr": "66.35.250.204", "daddr": "128.232.110.120", "sport": 80, "dport": 34855, "communityid": "1:LQU9qZlK+B5F3KDmev6m5PMibrg="},
        {"proto": 17, "saddr": "192.168.1.52", "daddr": "8.8.8.8", "sport": 54585, "dport": 53, "communityid": "1:d/FP5EW3wiY1vCndhwleRRKHowQ="},
        {"proto": 17, "saddr": "8.8.8.8", "daddr": "192.168.1.52", "sport": 53, "dport": 54585, "communityid": "1:d/FP5EW3wiY1vCndhwleRRKHowQ="},
        {"proto": 46, "saddr": "10.1.12.1", "daddr": "10.1.12.2", "sport": null, "dport": null, "communityid": "1:KHlLkgoJW7ifUTyTSgyVfkFHzKw="},
        {"proto": 46, "saddr": "10.1.12.2", "daddr": "10.1.12.1", "sport": null, "dport": null, "communityid": "1:KHlLkgoJW7ifUTyTSgyVfkFHzKw="}]
        """#

    static let seed1 = #"""
        [{"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "fe80::260:97ff:fe07:69ea", "sport": 135, "dport": 136, "communityid": "1:kHa1FhMYIT6Ym2Vm2AOtoOARDzY="},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "fe80::200:86ff:fe05:80da", "sport": 136, "dport": 135, "communityid": "1:kHa1FhMYIT6Ym2Vm2AOtoOARDzY="},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "fe80::200:86ff:fe05:80da", "sport": 135, "dport": 136, "communityid": "1:2hSqmsDZ2kdcY9kbiUzOEBic0iM="},
        {"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "fe80::260:97ff:fe07:69ea", "sport": 136, "dport": 135, "communityid": "1:2hSqmsDZ2kdcY9kbiUzOEBic0iM="},
        {"proto": 58, "saddr": "3ffe:501:1800:2345::2", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 3, "dport": 0, "communityid": "1:lVEtCZpYu84Xqaa++3lXFyuu2n4="},
        {"proto": 58, "saddr": "3ffe:501:410:0:2c0:dfff:fe47:33e", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 1, "dport": 4, "communityid": "1:W8MHwXpWzpoSTD+cGcaJr4u0ys8="},
        {"proto": 58, "saddr": "3ffe:507:0:1:200:86ff:fe05:80da", "daddr": "3ffe:501:0:1001::2", "sport": 128, "dport": 129, "communityid": "1:GfZxjAkDk2MkegpBYHV6tadtFXQ="},
        {"proto": 58, "saddr": "3ffe:501:0:1001::2", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 129, "dport": 128, "communityid": "1:GfZxjAkDk2MkegpBYHV6tadtFXQ="},
        {"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "ff02::2", "sport": 133, "dport": 134, "communityid": "1:L7Ka0ZMYu+J3bL4ulW2PrqyXNo8="},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "ff02::1", "sport": 134, "dport": 133, "communityid": "1:K/ee5UCqAMAQXDorP5nSa2CGLjc="},
        {"proto": 1, "saddr": "192.168.0.89", "daddr": "192.168.0.1", "sport": 8, "dport": 0, "communityid": "1:03g6IloqVBdcZlPyX8r0hgoE7kA="},
        {"proto": 1, "saddr": "192.168.0.1", "daddr": "192.168.0.89", "sport": 0, "dport": 8, "communityid": "1:03g6IloqVBdcZlPyX8r0hgoE7kA="},
        {"proto": 1, "saddr": "10.0.0.1", "daddr": "10.0.0.2", "sport": 11, "dport": 0, "communityid": "1:XjUibYHaafLQ3pxQeiMI8g25q20="},
        {"proto": 6, "saddr": "2001:470:e5bf:dead:4957:2174:e82c:4887", "daddr": "2607:f8b0:400c:c03::1a", "sport": 63943, "dport": 25, "communityid": "1:eJYTW6AOzFLlSUoESovMjnu7rMw="},
        {"proto": 6, "saddr": "2607:f8b0:400c:c03::1a", "daddr": "2001:470:e5bf:dead:4957:2174:e82c:4887", "sport": 25, "dport": 63943, "communityid": "1:eJYTW6AOzFLlSUoESovMjnu7rMw="},
        {"proto": 132, "saddr": "192.168.170.8", "daddr": "192.168.170.56", "sport": 7, "dport": 7, "communityid": "1:5w3ZRjeKBzqT3zsaEECDGjUbYeg="},
        {"proto": 132, "saddr": "192.168.170.56", "daddr": "192.168.170.8", "sport": 7, "dport": 7, "communityid": "1:5w3ZRjeKBzqT3zsaEECDGjUbYeg="},
        {"proto": 6, "saddr": "128.232.110.120", "daddr": "66.35.250.204", "sport": 34855, "dport": 80, "communityid": "1:3V71V58M3Ksw/yuFALMcW0LAHvc="},
        {"proto": 6, "saddr": "66.35.250.204", "daddr": "128.232.110.120", "sport": 80, "dport": 34855, "communityid": "1:3V71V58M3Ksw/yuFALMcW0LAHvc="},
        {"proto": 17, "saddr": "192.168.1.52", "daddr": "8.8.8.8", "sport": 54585, "dport": 53, "communityid": "1:Q9We8WO3piVF8yEQBNJF4uiSVrI="},
        {"proto": 17, "saddr": "8.8.8.8", "daddr": "192.168.1.52", "sport": 53, "dport": 54585, "communityid": "1:Q9We8WO3piVF8yEQBNJF4uiSVrI="},
        {"proto": 46, "saddr": "10.1.12.1", "daddr": "10.1.12.2", "sport": null, "dport": null, "communityid": "1:rYir8gphR31noO9iDRQmF/BteEI="},
        {"proto": 46, "saddr": "10.1.12.2", "daddr": "10.1.12.1", "sport": null, "dport": null, "communityid": "1:rYir8gphR31noO9iDRQmF/BteEI="}]
        """#

    static let nob64 = #"""
        [{"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "fe80::260:97ff:fe07:69ea", "sport": 135, "dport": 136, "communityid": "1:7461f21af8cc7e58e0e81a69c26ddb8342cef136"},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "fe80::200:86ff:fe05:80da", "sport": 136, "dport": 135, "communityid": "1:7461f21af8cc7e58e0e81a69c26ddb8342cef136"},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "fe80::200:86ff:fe05:80da", "sport": 135, "dport": 136, "communityid": "1:cdabf24ff71ecd0af57e6226602c189cc5db81c9"},
        {"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "fe80::260:97ff:fe07:69ea", "sport": 136, "dport": 135, "communityid": "1:cdabf24ff71ecd0af57e6226602c189cc5db81c9"},
        {"proto": 58, "saddr": "3ffe:501:1800:2345::2", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 3, "dport": 0, "communityid": "1:d8e6d5060227dbca19be26d866164c06087b59d4"},
        {"proto": 58, "saddr": "3ffe:501:410:0:2c0:dfff:fe47:33e", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 1, "dport": 4, "communityid": "1:84b65dd17196a23a33aefc6a13475607588ce91d"},
        {"proto": 58, "saddr": "3ffe:507:0:1:200:86ff:fe05:80da", "daddr": "3ffe:501:0:1001::2", "sport": 128, "dport": 129, "communityid": "1:f935be1ed2c7bd5d719c6855d65bfb5e826ba908"},
        {"proto": 58, "saddr": "3ffe:501:0:1001::2", "daddr": "3ffe:507:0:1:200:86ff:fe05:80da", "sport": 129, "dport": 128, "communityid": "1:f935be1ed2c7bd5d719c6855d65bfb5e826ba908"},
        {"proto": 58, "saddr": "fe80::200:86ff:fe05:80da", "daddr": "ff02::2", "sport": 133, "dport": 134, "communityid": "1:84efac3781fe306e4c63ff2122b5cfa9ce19433d"},
        {"proto": 58, "saddr": "fe80::260:97ff:fe07:69ea", "daddr": "ff02::1", "sport": 134, "dport": 133, "communityid": "1:a64bc7a822fcf3fb60d64e1c3e282665752d2f4d"},
        {"proto": 1, "saddr": "192.168.0.89", "daddr": "192.168.0.1", "sport": 8, "dport": 0, "communityid": "1:5f4b27617a60c22bfd4d9b6a83ae2c833527e839"},
        {"proto": 1, "saddr": "192.168.0.1", "daddr": "192.168.0.89", "sport": 0, "dport": 8, "communityid": "1:5f4b27617a60c22bfd4d9b6a83ae2c833527e839"},
        {"proto": 1, "saddr": "10.0.0.1", "daddr": "10.0.0.2", "sport": 11, "dport": 0, "communityid": "1:607c6d022ac21bfff43b391c540ba4a8a40df713"},
        {"proto": 6, "saddr": "2001:470:e5bf:dead:4957:2174:e82c:4887", "daddr": "2607:f8b0:400c:c03::1a", "sport": 63943, "dport": 25, "communityid": "1:fea15a78047e8057b52988cccd50ec32ffb0814e"},
        {"proto": 6, "saddr": "2607:f8b0:400c:c03::1a", "daddr": "2001:470:e5bf:dead:4957:2174:e82c:4887", "sport": 25, "dport": 63943, "communityid": "1:fea15a78047e8057b52988cccd50ec32ffb0814e"},
        {"proto": 132, "saddr": "192.168.170.8", "daddr": "192.168.170.56", "sport": 7, "dport": 7, "communityid": "1:30fd84b5108050866f4f0e8cc491cb57b37b243b"},
        {"proto": 132, "saddr": "192.168.170.56", "daddr": "192.168.170.8", "sport": 7, "dport": 7, "communityid": "1:30fd84b5108050866f4f0e8cc491cb57b37b243b"},
        {"proto": 6, "saddr": "128.232.110.120", "daddr": "66.35.250.204", "sport": 34855, "dport": 80, "communityid": "1:2d053da9994af81e45dca0e67afea6e4f3226eb8"},
        {"proto": 6, "saddr": "66.35.250.204", "daddr": "128.232.110.120", "sport": 80, "dport": 34855, "communityid": "1:2d053da9994af81e45dca0e67afea6e4f3226eb8"},
        {"proto": 17, "saddr": "192.168.1.52", "daddr": "8.8.8.8", "sport": 54585, "dport": 53, "communityid": "1:77f14fe445b7c22635bc29dd87095e451287a304"},
        {"proto": 17, "saddr": "8.8.8.8", "daddr": "192.168.1.52", "sport": 53, "dport": 54585, "communityid": "1:77f14fe445b7c22635bc29dd87095e451287a304"},
        {"proto": 46, "saddr": "10.1.12.1", "daddr": "10.1.12.2", "sport": null, "dport": null, "communityid": "1:28794b920a095bb89f513c934a0c957e4147ccac"},
        {"proto": 46, "saddr": "10.1.12.2", "daddr": "10.1.12.1", "sport": null, "dport": null, "communityid": "1:28794b920a095bb89f513c934a0c957e4147ccac"}]
        """#

    /// One row of README.md's tables: the tuple (nil ports for RSVP, "-" in the table), then the
    /// "Community ID (defaults)", "(seed=1, w/ base64)" and "(seed=0, w/o base64)" columns.
    struct Row: Sendable, CustomTestStringConvertible {
        let proto: UInt8
        let source: String, destination: String
        let sourcePort: UInt16?, destinationPort: UInt16?
        let deflt: String, seed1: String, nob64: String
        var testDescription: String { "\(proto) \(source) \(sourcePort.map(String.init) ?? "-") → \(destination)" }
    }

    static let v6a = "fe80:0001:0203:0405:0607:0809:0A0B:0C0D", v6b = "fe80:1011:1213:1415:1617:1819:1A1B:1C1D"

    static let tables: [Row] = [
        Row(proto: 6, source: "1.2.3.4", destination: "5.6.7.8", sourcePort: 1122, destinationPort: 3344,
            deflt: "1:wCb3OG7yAFWelaUydu0D+125CLM=", seed1: "1:HhA1B+6CoLbiKPEs5nhNYN4XWfk=",
            nob64: "1:c026f7386ef200559e95a53276ed03fb5db908b3"),
        Row(proto: 6, source: "5.6.7.8", destination: "1.2.3.4", sourcePort: 3344, destinationPort: 1122,
            deflt: "1:wCb3OG7yAFWelaUydu0D+125CLM=", seed1: "1:HhA1B+6CoLbiKPEs5nhNYN4XWfk=",
            nob64: "1:c026f7386ef200559e95a53276ed03fb5db908b3"),
        Row(proto: 17, source: "1.2.3.4", destination: "5.6.7.8", sourcePort: 1122, destinationPort: 3344,
            deflt: "1:0Mu9InQx6z4ZiCZM/7HXi2WMhOg=", seed1: "1:OShq+iKDAMVouh/4bMxB9Sz4amw=",
            nob64: "1:d0cbbd227431eb3e1988264cffb1d78b658c84e8"),
        Row(proto: 17, source: "5.6.7.8", destination: "1.2.3.4", sourcePort: 3344, destinationPort: 1122,
            deflt: "1:0Mu9InQx6z4ZiCZM/7HXi2WMhOg=", seed1: "1:OShq+iKDAMVouh/4bMxB9Sz4amw=",
            nob64: "1:d0cbbd227431eb3e1988264cffb1d78b658c84e8"),
        Row(proto: 132, source: "1.2.3.4", destination: "5.6.7.8", sourcePort: 1122, destinationPort: 3344,
            deflt: "1:EKt4MsxuyaE6mL+hmrEkQ9csDD8=", seed1: "1:uitchpn5MMGAQKBJh7bIr/bAr7s=",
            nob64: "1:10ab7832cc6ec9a13a98bfa19ab12443d72c0c3f"),
        Row(proto: 132, source: "5.6.7.8", destination: "1.2.3.4", sourcePort: 3344, destinationPort: 1122,
            deflt: "1:EKt4MsxuyaE6mL+hmrEkQ9csDD8=", seed1: "1:uitchpn5MMGAQKBJh7bIr/bAr7s=",
            nob64: "1:10ab7832cc6ec9a13a98bfa19ab12443d72c0c3f"),
        Row(proto: 1, source: "1.2.3.4", destination: "5.6.7.8", sourcePort: 8, destinationPort: 0,
            deflt: "1:crodRHL2FEsHjbv3UkRrfbs4bZ0=", seed1: "1:9pr4ZGTICiuZoIh90RRYE2RyXpU=",
            nob64: "1:72ba1d4472f6144b078dbbf752446b7dbb386d9d"),
        Row(proto: 1, source: "5.6.7.8", destination: "1.2.3.4", sourcePort: 0, destinationPort: 0,
            deflt: "1:crodRHL2FEsHjbv3UkRrfbs4bZ0=", seed1: "1:9pr4ZGTICiuZoIh90RRYE2RyXpU=",
            nob64: "1:72ba1d4472f6144b078dbbf752446b7dbb386d9d"),
        Row(proto: 1, source: "1.2.3.4", destination: "5.6.7.8", sourcePort: 11, destinationPort: 0,
            deflt: "1:f/YiSyWqczrTgfUCZlBUnvHRcPk=", seed1: "1:1DD7cWGC/Yg91YGsQeni8du3pIA=",
            nob64: "1:7ff6224b25aa733ad381f5026650549ef1d170f9"),
        Row(proto: 58, source: v6a, destination: v6b, sourcePort: 128, destinationPort: 0,
            deflt: "1:0bf7hyMJUwt3fMED7z8LIfRpBeo=", seed1: "1:IO27GQzPuCtNnwFvjWALMHu5tJE=",
            nob64: "1:d1b7fb872309530b777cc103ef3f0b21f46905ea"),
        Row(proto: 58, source: v6b, destination: v6a, sourcePort: 129, destinationPort: 0,
            deflt: "1:0bf7hyMJUwt3fMED7z8LIfRpBeo=", seed1: "1:IO27GQzPuCtNnwFvjWALMHu5tJE=",
            nob64: "1:d1b7fb872309530b777cc103ef3f0b21f46905ea"),
        Row(proto: 58, source: v6a, destination: v6b, sourcePort: 146, destinationPort: 0,
            deflt: "1:fYC8+pz24E+EhANP1EZhpX0Dw10=", seed1: "1:Cv4IKJe56BNkF0MBW2YxQ3Nwc3s=",
            nob64: "1:7d80bcfa9cf6e04f8484034fd44661a57d03c35d"),
        Row(proto: 46, source: "1.2.3.4", destination: "5.6.7.8", sourcePort: nil, destinationPort: nil,
            deflt: "1:ikv3kmf89luf73WPz1jOs49S768=", seed1: "1:/buhqeOmaRCopOZFy9HnoJd5XW8=",
            nob64: "1:8a4bf79267fcf65b9fef758fcf58ceb38f52efaf"),
        Row(proto: 46, source: "5.6.7.8", destination: "1.2.3.4", sourcePort: nil, destinationPort: nil,
            deflt: "1:ikv3kmf89luf73WPz1jOs49S768=", seed1: "1:/buhqeOmaRCopOZFy9HnoJd5XW8=",
            nob64: "1:8a4bf79267fcf65b9fef758fcf58ceb38f52efaf"),
        Row(proto: 46, source: v6a, destination: v6b, sourcePort: nil, destinationPort: nil,
            deflt: "1:wQ/2mwrnXP4lmJcHdGL5ePjR+e0=", seed1: "1:j6EyyfBzL4vWKHFXgUqb5Az3OxM=",
            nob64: "1:c10ff69b0ae75cfe259897077462f978f8d1f9ed"),
        Row(proto: 46, source: v6b, destination: v6a, sourcePort: nil, destinationPort: nil,
            deflt: "1:wQ/2mwrnXP4lmJcHdGL5ePjR+e0=", seed1: "1:j6EyyfBzL4vWKHFXgUqb5Az3OxM=",
            nob64: "1:c10ff69b0ae75cfe259897077462f978f8d1f9ed"),
    ]
}
