extension RequirementCatalogueLibrary {
    /// `tr-03161-1_3.0`: BSI TR-03161-1 version 3.0 of 2024-03-25, with the TLS minimum of
    /// BSI TR-02102-2 v2026-01 §3.2 (audit.md § Requirement catalogue).
    ///
    /// What it leaves out, on purpose: the PDF's `sha256`, which was not verified against the
    /// document here (a digest is never made up); the aspects and test depths, which the notes this
    /// was written from do not give. The titles are TunnelVision's own summaries, and say so: the
    /// document's German titles are not transcribed, so none is invented.
    static let tr03161Part1Version3 = #"""
    {
      "formatVersion": 1,
      "identifier": "tr-03161-1_3.0",
      "source": {
        "document": "BSI TR-03161-1",
        "title": "Security requirements for medical apps (DiGA), part 1 (TunnelVision's description; the document's German title is not transcribed)",
        "version": "3.0",
        "date": "2024-03-25"
      },
      "tls": {
        "minimumVersion": "1.2",
        "source": "BSI TR-02102-2 v2026-01 §3.2"
      },
      "requirements": [
        {
          "id": "O.Purp_3",
          "title": "TunnelVision's summary: no network activity before the user's consent",
          "rule": "contraryFindings",
          "contraryKinds": ["activityBeforeConsent"],
          "toolCoverage": "The tool compares when each connection began with the consent markers placed in the session; it cannot see what a connection carried, nor consent given in any way other than a marker."
        },
        {
          "id": "O.Purp_8",
          "title": "TunnelVision's summary: connections only to the hosts the app is meant to reach",
          "rule": "contraryFindings",
          "contraryKinds": ["hostNotInAllowlist", "unnamedFlow"],
          "toolCoverage": "The tool compares each connection's announced or DNS-derived name with the project's allowlist and reports connections it cannot name; it cannot see what data was sent, nor tell which of several names sharing an address a connection went to."
        },
        {
          "id": "O.Ntwk_1",
          "title": "TunnelVision's summary: network communication is encrypted",
          "rule": "contraryFindings",
          "contraryKinds": ["cleartextTraffic"],
          "toolCoverage": "The tool recognises TLS and QUIC by their handshakes and cleartext only by an HTTP request line; other cleartext protocols, and streams whose first bytes were not read, are left unassessed."
        },
        {
          "id": "O.Ntwk_2",
          "title": "TunnelVision's summary: TLS no older than the minimum version",
          "rule": "contraryFindings",
          "contraryKinds": ["weakTLSVersion"],
          "toolCoverage": "The tool reads the TLS version the server chose (from its ServerHello, the tunnel's own connection, or the QUIC version) and compares it with the minimum; it does not judge cipher suites, key exchange or certificates."
        },
        {
          "id": "O.Ntwk_3",
          "title": "Not summarised by TunnelVision: see the document",
          "rule": "outsideToolScope"
        },
        {
          "id": "O.Ntwk_4",
          "title": "TunnelVision's summary: the app pins its servers' certificates",
          "rule": "contraryAndSupportingFindings",
          "contraryKinds": ["pinningAbsent"],
          "supportingKinds": ["pinningObserved"],
          "toolCoverage": "Only with inspection on and its CA trusted does the tool see whether the app accepted the inspecting certificate for a host; a refusal may also mean the app trusts no user-installed root, and QUIC is not inspected."
        },
        {
          "id": "O.Ntwk_5",
          "title": "Not summarised by TunnelVision: see the document",
          "rule": "outsideToolScope"
        },
        {
          "id": "O.Ntwk_6",
          "title": "Not summarised by TunnelVision: see the document",
          "rule": "outsideToolScope"
        },
        {
          "id": "O.Ntwk_7",
          "title": "Not summarised by TunnelVision: see the document",
          "rule": "outsideToolScope"
        },
        {
          "id": "O.Ntwk_8",
          "title": "Not summarised by TunnelVision: see the document",
          "rule": "outsideToolScope"
        }
      ]
    }
    """#
}
