import Foundation
import Shared

/// The report a person hands over (`audit report`, the Audit screen's Report): one HTML file with
/// its styles inside, built for printing (A4, no script, nothing fetched), stating how the session
/// was recorded, its markers, each finding with its connections, every check's coverage, each
/// requirement's verdict, and what the tool cannot see. Pure: the same report gives the same bytes.
enum AuditReportDocument {
    static func html(_ report: AuditFindingsReport, generatedAt: Date) -> String {
        let e = HTMLText.escaped
        let session = report.session
        let title = "Network evidence: \(report.project.name), session \(session.id)"
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(e(title))</title>
            <style>\(style)</style></head><body>
            <h1>\(e(title))</h1>
            <p class="meta">\(e(AuditSessionWording.kind(session.kind))) · \(e(AuditSessionWording.span(session))) · \
            \(report.flowCount) connection\(report.flowCount == 1 ? "" : "s") · generated \(e(UTCTimestamp.iso8601(generatedAt))) \
            by \(e(session.environment.toolVersion))</p>

            """
        out += "<h2>How it was recorded</h2>\n<dl>\n"
        let inspection = session.inspection
        for (term, value) in [
            ("Project", report.project.name + (report.project.bundleIdentifier.map { " (\($0), informational only)" } ?? "")),
            ("Allowlist", report.project.allowlist.isEmpty ? "empty: hosts were not assessed"
                : report.project.allowlist.map { $0.pattern.text + ($0.note.map { " (\($0))" } ?? "") }.joined(separator: ", ")),
            ("Machine", session.environment.deviceModel), ("Operating system", session.environment.osVersion),
            ("TLS inspection", inspection.inspectionEnabled ? "on" : "off"),
            ("Inspecting CA trusted", inspection.caTrusted ? "yes" : "no"),
            ("Pinning can be told", inspection.supportsPinningEvidence ? "yes" : "no: " + (inspection.inspectionEnabled
                ? "the inspecting CA was not trusted" : "inspection was off")),
            ("Notes", session.notes.isEmpty ? "none" : session.notes),
        ] {
            out += "<dt>\(e(term))</dt><dd>\(e(value))</dd>\n"
        }
        out += "</dl>\n<p>\(e(methodStatement))</p>\n"

        out += "<h2>Markers</h2>\n"
        if report.markers.isEmpty {
            out += "<p>None were placed.</p>\n"
        } else {
            out += "<ul>\n" + report.markers.map {
                "<li>\(e(UTCTimestamp.iso8601($0.date))): \(e(AuditSessionWording.marker($0.kind)))</li>"
            }.joined(separator: "\n") + "\n</ul>\n"
        }

        out += "<h2>Findings</h2>\n"
        if report.findings.findings.isEmpty { out += "<p>None.</p>\n" }
        let flows = Dictionary(report.flows.map { ($0.id, $0) }) { first, _ in first }
        for (index, finding) in report.findings.findings.enumerated() {
            out += "<section class=\"finding\"><h3>\(AuditFindingsReport.findingID(index)): \(e(finding.statement))</h3>\n"
            out += "<p class=\"kind\">\(e(finding.kind.rawValue)) · \(e(finding.kind.check.title))</p>\n"
            out += "<table><thead><tr><th>Connection</th><th>First seen (UTC)</th><th>Protocol</th><th>Ends</th><th>Name</th></tr></thead><tbody>\n"
            for id in finding.flowIDs {
                guard let flow = flows[id] else { continue }
                out += "<tr><td>\(id)</td><td>\(e(UTCTimestamp.iso8601(flow.firstSeen)))</td><td>\(e(flow.key.proto.displayName))</td>"
                    + "<td>\(e("\(flow.key.endpointA) ↔ \(flow.key.endpointB)"))</td>"
                    + "<td>\(e(flow.name.map { "\($0.text) (\($0.origin.rawValue))" } ?? "none"))</td></tr>\n"
            }
            out += "</tbody></table></section>\n"
        }

        out += "<h2>Checks</h2>\n<table><thead><tr><th>Check</th><th>With a finding</th><th>Without</th>"
            + "<th>Not assessed</th><th>Not applicable</th></tr></thead><tbody>\n"
        for check in AuditCheck.allCases {
            let withFinding = Set(report.findings.findings(of: check).flatMap(\.flowIDs)).count
            out += "<tr><th>\(e(check.title))</th><td>\(withFinding)</td><td>\(report.findings.satisfiedFlowIDs(of: check).count)</td>"
                + "<td>\(report.findings.unassessedFlowIDs(of: check).count)</td><td>\(report.findings.notApplicableFlowIDs(of: check).count)</td></tr>\n"
        }
        out += "</tbody></table>\n"

        let source = report.catalogue.source
        out += "<h2>Requirements</h2>\n<p>Read against \(e(source.title)) (\(e(source.document)) \(e(source.version)), \(e(source.date))); "
            + "TLS minimum \(e(report.catalogue.policy.minimumTLSVersion.name)) from \(e(report.catalogue.tlsSource)).</p>\n"
        out += "<table><thead><tr><th>Requirement</th><th>Verdict</th><th>Findings</th></tr></thead><tbody>\n"
        for assessment in report.assessments {
            let ids = { (chosen: [Finding]) in
                chosen.compactMap { finding in report.findings.findings.firstIndex(of: finding).map(AuditFindingsReport.findingID) }
            }
            let findings = ids(assessment.findingsAgainst).map { "\($0) against" } + ids(assessment.findingsFor).map { "\($0) for" }
            out += "<tr><th>\(e(assessment.requirement.id))<div class=\"title\">\(e(assessment.requirement.title))</div></th>"
                + "<td><strong>\(e(AuditSessionWording.verdict(assessment.verdict)))</strong><br>\(e(assessment.verdict.statement))"
                + (assessment.requirement.toolCoverage.map { "<div class=\"coverage\">\(e($0))</div>" } ?? "")
                + "</td><td>\(e(findings.joined(separator: ", ")))</td></tr>\n"
        }
        out += "</tbody></table>\n<p class=\"note\">\(e(AuditSessionWording.verdictsNote))</p>\n"
        out += "<h2>What this report cannot show</h2>\n<ul>\n" + limits.map { "<li>\(e($0))</li>" }.joined(separator: "\n") + "\n</ul>\n"
        out += "</body></html>\n"
        return out
    }

    /// How a session's traffic is attributed (ADR 0008).
    static let methodStatement = "A session recorded with 'audit record' holds exactly the connections of the command it ran, "
        + "in a network namespace of its own. A session recorded around the monitoring service holds everything the machine "
        + "said while it was open; traffic beyond a baseline session, recorded without the audited program, is attributed to "
        + "the program, and that attribution is only as strong as the conditions both were recorded in."

    static let limits = [
        "Verdicts read network traffic only: a requirement no finding contradicts is not thereby met.",
        "Pinning is told only when inspection was on and its CA trusted; a client that refuses the inspecting certificate "
            + "may pin, or may trust no user-installed root: the report does not say which.",
        "A connection's name comes from its own server_name, or from DNS answers the tunnel saw; names from encrypted DNS "
            + "are not seen.",
        "Decrypted content is never part of the evidence.",
    ]

    static let style = """
        @page { size: A4; margin: 18mm 16mm; } @media screen { body { padding: 1.5rem; } }
        body { font: 10.5pt/1.45 system-ui, sans-serif; color: #111; max-width: 60rem; margin: 0 auto; }
        h1 { font-size: 18pt; margin: 0 0 0.2rem; } h2 { font-size: 13pt; margin: 1.4rem 0 0.4rem; border-bottom: 1px solid #999; }
        h3 { font-size: 11pt; margin: 0.8rem 0 0.2rem; } .meta, .kind, .title, .coverage, .note { color: #444; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; } dt { font-weight: 600; } dd { margin: 0; }
        table { border-collapse: collapse; width: 100%; margin: 0.3rem 0; } th, td { text-align: left; vertical-align: top;
        padding: 0.2rem 0.4rem; border-top: 1px solid #ccc; font-size: 9.5pt; } thead th { border-bottom: 1px solid #666; }
        .finding, tr { break-inside: avoid; } .title, .coverage { font-weight: normal; font-size: 9pt; }
        """
}
