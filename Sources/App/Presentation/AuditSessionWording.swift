import Foundation
import Shared

/// How the audit's values read in a report or a listing: one wording everywhere.
enum AuditSessionWording {
    static func kind(_ kind: AuditSessionKind) -> String {
        switch kind {
        case .baseline: "baseline"
        case let .audit(appRelease): "release " + release(appRelease)
        }
    }

    static func release(_ release: AppRelease) -> String {
        release.build.isEmpty ? release.version : "\(release.version)+\(release.build)"
    }

    static func span(_ session: AuditSession) -> String {
        let start = UTCTimestamp.iso8601(session.startedAt)
        return session.endedAt.map { "\(start) – \(UTCTimestamp.iso8601($0))" } ?? "since \(start), recording"
    }

    static func marker(_ kind: SessionMarkerKind) -> String {
        switch kind {
        case .consentGiven: "consent given"
        case .loggedIn: "logged in"
        case .loggedOut: "logged out"
        case let .custom(label): label
        }
    }

    /// "Consent given": the marker as a button or a report's line begins it.
    static func markerTitle(_ kind: SessionMarkerKind) -> String {
        let words = marker(kind)
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// "3, 7, 9" — or the first few and how many more.
    static func ids(_ ids: [Int64], shown: Int = 8) -> String {
        let head = ids.prefix(shown).map(String.init).joined(separator: ", ")
        return ids.count > shown ? "\(head) and \(ids.count - shown) more" : head
    }

    static func verdict(_ verdict: RequirementVerdict) -> String {
        switch verdict {
        case .contradicted: "contradicted"
        case .observedWithoutContradiction: "observed, not contradicted"
        case .notAssessed(.outsideToolScope): "not assessed (outside network observation)"
        case .notAssessed(.nothingObserved): "not assessed (nothing observed)"
        }
    }

    /// What every report says of its verdicts.
    static let verdictsNote = "Verdicts say what this session's traffic shows: it can contradict a requirement or be "
        + "observed without contradicting it. No verdict says a requirement is met; that needs the assessor's review."
}

/// The audit's values in JSON, written once for every answer that holds them.
enum AuditJSON {
    /// The session as an object under "session" (or `key`), or as an array's element when
    /// `named` is false.
    static func session(_ session: AuditSession, projectName: String, into out: inout JSONWriter, named: Bool = true,
                        key: StaticString = "session") {
        if named { out.beginObject(key) } else { out.beginObject() }
        out.number("id", Int(session.id))
        out.number("projectID", Int(session.projectID))
        out.string("project", projectName)
        out.string("kind", session.kind.identifier)
        if let release = session.kind.release {
            out.beginObject("release")
            out.string("version", release.version)
            out.string("build", release.build)
            out.endObject()
        }
        out.string("startedAt", UTCTimestamp.iso8601(session.startedAt))
        out.string("endedAt", session.endedAt.map(UTCTimestamp.iso8601))
        out.bool("open", session.isOpen)
        out.string("notes", session.notes)
        out.beginObject("environment")
        out.string("machine", session.environment.deviceModel)
        out.string("os", session.environment.osVersion)
        out.string("tool", session.environment.toolVersion)
        out.endObject()
        out.beginObject("inspection")
        out.bool("enabled", session.inspection.inspectionEnabled)
        out.bool("caTrusted", session.inspection.caTrusted)
        out.bool("supportsPinningEvidence", session.inspection.supportsPinningEvidence)
        out.endObject()
        out.endObject()
    }

    /// The project as an array's element, with its sessions when given.
    static func project(_ project: AuditProject, into out: inout JSONWriter, sessions: [AuditSession]? = nil) {
        out.beginObject()
        out.number("id", Int(project.id))
        out.string("name", project.name)
        out.string("bundleID", project.bundleIdentifier)
        out.string("catalogue", RequirementCatalogueLibrary.identifier(for: project))
        out.string("createdAt", UTCTimestamp.iso8601(project.createdAt))
        out.beginArray("allowlist")
        for entry in project.allowlist {
            out.beginObject()
            out.string("pattern", entry.pattern.text)
            out.string("note", entry.note)
            out.endObject()
        }
        out.endArray()
        if let sessions {
            out.beginArray("sessions")
            for session in sessions { AuditJSON.session(session, projectName: project.name, into: &out, named: false) }
            out.endArray()
        }
        out.endObject()
    }

    static func marker(_ marker: SessionMarker, into out: inout JSONWriter) {
        out.beginObject("marker")
        out.number("id", Int(marker.id))
        out.number("sessionID", Int(marker.sessionID))
        out.string("kind", marker.kind.identifier)
        if let label = marker.kind.label { out.string("label", label) }
        out.string("title", AuditSessionWording.markerTitle(marker.kind))
        out.string("at", UTCTimestamp.iso8601(marker.date))
        out.endObject()
    }
}
