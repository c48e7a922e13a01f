import Foundation
import Shared

extension AuditQuestion.Answer {
    package var text: String {
        switch self {
        case let .overview(projects, recording):
            var lines = [recording.map { "Recording now: audit session \($0.session.id) of \($0.projectName) "
                + "(\(AuditSessionWording.kind($0.session.kind)), \(AuditSessionWording.span($0.session)))." } ?? "No audit session is recording."]
            if projects.isEmpty { lines.append("No audit projects yet: 'tunnelvision audit project create NAME --allow PATTERN' makes one.") }
            for (project, sessions) in projects {
                lines.append("")
                lines.append("\(project.id)  \(project.name)  (\(project.allowlist.map(\.pattern.text).joined(separator: ", ")))")
                for session in sessions { lines.append("  " + Self.sessionLine(session)) }
            }
            return lines.joined(separator: "\n")
        case let .project(project, sessions):
            var lines = ["Project \(project.id): \(project.name)"
                         + (project.bundleIdentifier.map { " (\($0), informational)" } ?? ""),
                         "  catalogue \(RequirementCatalogueLibrary.identifier(for: project)), created \(UTCTimestamp.iso8601(project.createdAt))"]
            lines.append(project.allowlist.isEmpty ? "  allowlist: empty (hosts are not assessed until it names some)" : "  allowlist:")
            for entry in project.allowlist { lines.append("    \(entry.pattern.text)" + (entry.note.map { "  — \($0)" } ?? "")) }
            lines.append(sessions.isEmpty ? "  no sessions yet" : "  sessions:")
            for session in sessions { lines.append("    " + Self.sessionLine(session)) }
            return lines.joined(separator: "\n")
        case let .projects(projects):
            guard !projects.isEmpty else { return "No audit projects yet: 'tunnelvision audit project create NAME --allow PATTERN' makes one." }
            return projects.map { "\(Self.padded($0.id))  \($0.name)  (\($0.allowlist.count) allowed pattern\($0.allowlist.count == 1 ? "" : "s"))" }
                .joined(separator: "\n")
        case let .projectDeleted(project):
            return "Deleted project \(project.id) (\(project.name)) with its sessions and markers; their connections stay in the history, "
                + "no longer held as evidence."
        case let .sessionDeleted(session, count):
            return "Deleted audit session \(session.id) with its markers; its \(count) connection\(count == 1 ? "" : "s") stay in the "
                + "history, no longer kept as evidence."
        case let .sessions(sessions, names):
            guard !sessions.isEmpty else { return "No audit sessions yet." }
            return sessions.map { Self.sessionLine($0) + "  \(names[$0.projectID] ?? "project \($0.projectID)")" }.joined(separator: "\n")
        case let .started(recording):
            return "audit session \(recording.session.id) started (\(recording.projectName), "
                + "\(AuditSessionWording.kind(recording.session.kind)), \(UTCTimestamp.iso8601(recording.session.startedAt)))"
                + (recording.session.inspection.supportsPinningEvidence ? ""
                   : "; pinning cannot be told in this session (\(Self.pinningCondition(recording.session.inspection)))")
        case let .ended(session, name, count):
            return "audit session \(session.id) ended (\(name), \(AuditSessionWording.span(session)), \(count) connection\(count == 1 ? "" : "s")); "
                + "'tunnelvision audit findings \(session.id)' reads them"
        case let .marked(marker, recording):
            return "marked \(AuditSessionWording.marker(marker.kind)) at \(UTCTimestamp.iso8601(marker.date)) in audit session "
                + "\(recording.session.id) (\(recording.projectName))"
        case let .findings(report):
            return report.text
        case let .report(report, generatedAt):
            return AuditReportDocument.html(report, generatedAt: generatedAt)
        case let .exported(result):
            return "wrote the evidence bundle to \(result.url.path) (\(result.byteCount) bytes: \(result.flowCount) connection"
                + "\(result.flowCount == 1 ? "" : "s"), \(result.findingCount) finding\(result.findingCount == 1 ? "" : "s"), "
                + "\(result.capture.written) packets); its manifest.json holds every other file's SHA-256"
        case let .diff(diff, project):
            return AuditDiffPresentation.text(diff, project: project)
        }
    }

    package var json: String {
        var out = JSONWriter()
        switch self {
        case let .overview(projects, recording):
            out.beginObject()
            out.beginArray("projects")
            for (project, sessions) in projects {
                AuditJSON.project(project, into: &out, sessions: sessions)
            }
            out.endArray()
            if let recording {
                AuditJSON.session(recording.session, projectName: recording.projectName, into: &out, key: "recording")
            } else {
                out.string("recording", nil)
            }
            // The marker buttons: the word `audit mark` takes and what the button says.
            out.beginArray("markers")
            for (word, kind) in AuditQuestion.fixedMarkers {
                out.beginObject()
                out.string("word", word)
                out.string("title", AuditSessionWording.markerTitle(kind))
                out.endObject()
            }
            out.endArray()
            out.endObject()
        case let .project(project, sessions):
            out.beginObject()
            out.key("project")
            AuditJSON.project(project, into: &out)
            out.beginArray("sessions")
            for session in sessions { AuditJSON.session(session, projectName: project.name, into: &out, named: false) }
            out.endArray()
            out.endObject()
        case let .projects(projects):
            out.beginObject()
            out.beginArray("projects")
            for project in projects { AuditJSON.project(project, into: &out) }
            out.endArray()
            out.endObject()
        case let .projectDeleted(project):
            out.beginObject()
            out.key("deleted")
            AuditJSON.project(project, into: &out)
            out.endObject()
        case let .sessionDeleted(session, count):
            out.beginObject()
            out.key("deleted")
            AuditJSON.session(session, projectName: "", into: &out, named: false)
            out.number("flowCount", count)
            out.endObject()
        case let .sessions(sessions, names):
            out.beginObject()
            out.beginArray("sessions")
            for session in sessions {
                AuditJSON.session(session, projectName: names[session.projectID] ?? "", into: &out, named: false)
            }
            out.endArray()
            out.endObject()
        case let .started(recording):
            out.beginObject()
            AuditJSON.session(recording.session, projectName: recording.projectName, into: &out)
            out.endObject()
        case let .ended(session, name, count):
            out.beginObject()
            AuditJSON.session(session, projectName: name, into: &out)
            out.number("flowCount", count)
            out.endObject()
        case let .marked(marker, recording):
            out.beginObject()
            AuditJSON.marker(marker, into: &out)
            AuditJSON.session(recording.session, projectName: recording.projectName, into: &out)
            out.endObject()
        case let .findings(report), let .report(report, _):
            return report.json
        case let .exported(result):
            out.beginObject()
            out.string("file", result.url.path)
            out.number("bytes", result.byteCount)
            out.number("flowCount", result.flowCount)
            out.number("findingCount", result.findingCount)
            out.number("packetsWritten", result.capture.written)
            out.endObject()
        case let .diff(diff, project):
            return AuditDiffPresentation.json(diff, project: project)
        }
        return out.writer.string
    }

    static func sessionLine(_ session: AuditSession) -> String {
        "\(padded(session.id))  \(AuditSessionWording.kind(session.kind))  \(AuditSessionWording.span(session))"
    }

    static func padded(_ id: Int64) -> String {
        let text = String(id)
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }

    static func pinningCondition(_ inspection: InspectionConditions) -> String {
        inspection.inspectionEnabled ? "the CA is not in the system's trust" : "inspection is off"
    }
}
