/// `session.json`: the session the bundle is evidence of, its project as it stands today (the
/// allowlist the findings were read against), its conditions and markers.
///
///   {"contents":"…","exportedAt":"…","flowCount":N,"format":"tunnelvision.evidence.session","formatVersion":1,
///    "markers":[{"date","id","kind","label"?}],
///    "project":{"allowlist":[{"note"?,"pattern"}],"bundleIdentifier"?,"catalogue","createdAt","id","name"},
///    "session":{"endedAt","environment":{"deviceModel","osVersion","toolVersion"},"id",
///               "inspection":{"caTrusted","inspectionEnabled","supportsPinningEvidence"},"kind","notes",
///               "release"?:{"build","version"},"startedAt"}}
extension EvidenceBundle {
    /// What the bundle holds, said by the bundle itself.
    package static let contents = "Evidence of one ended audit session: its project and allowlist, its conditions and markers, "
        + "its connections' metadata (flows.json, flows.csv), the findings and what they say of the catalogue's requirements "
        + "(findings.json), and the connections' captured packets (capture.pcapng, described in capture.json). "
        + "No decrypted content and no comparison between releases are in it."

    package var sessionJSON: [UInt8] {
        var out = JSONWriter(capacity: 4096)
        out.beginObject()
        out.string("contents", Self.contents)
        EvidenceJSON.instant(&out, "exportedAt", exportedAt)
        out.number("flowCount", flows.count)
        out.string("format", EvidenceBundleFormat.sessionDocument)
        out.number("formatVersion", EvidenceBundleFormat.version)
        out.beginArray("markers")
        for marker in markers {
            out.beginObject()
            EvidenceJSON.instant(&out, "date", marker.date)
            out.number("id", Int(marker.id))
            out.string("kind", marker.kind.identifier)
            if let label = marker.kind.label { out.string("label", label) }
            out.endObject()
        }
        out.endArray()
        out.beginObject("project")
        out.beginArray("allowlist")
        for entry in project.allowlist {
            out.beginObject()
            if let note = entry.note { out.string("note", note) }
            out.string("pattern", entry.pattern.text)
            out.endObject()
        }
        out.endArray()
        if let bundleIdentifier = project.bundleIdentifier { out.string("bundleIdentifier", bundleIdentifier) }
        out.string("catalogue", catalogue.identifier)
        EvidenceJSON.instant(&out, "createdAt", project.createdAt)
        out.number("id", Int(project.id))
        out.string("name", project.name)
        out.endObject()
        out.beginObject("session")
        if let endedAt = session.endedAt { EvidenceJSON.instant(&out, "endedAt", endedAt) }
        out.beginObject("environment")
        out.string("deviceModel", session.environment.deviceModel)
        out.string("osVersion", session.environment.osVersion)
        out.string("toolVersion", session.environment.toolVersion)
        out.endObject()
        out.number("id", Int(session.id))
        out.beginObject("inspection")
        out.bool("caTrusted", session.inspection.caTrusted)
        out.bool("inspectionEnabled", session.inspection.inspectionEnabled)
        out.bool("supportsPinningEvidence", session.inspection.supportsPinningEvidence)
        out.endObject()
        out.string("kind", session.kind.identifier)
        out.string("notes", session.notes)
        if let release = session.kind.release {
            out.beginObject("release")
            out.string("build", release.build)
            out.string("version", release.version)
            out.endObject()
        }
        EvidenceJSON.instant(&out, "startedAt", session.startedAt)
        out.endObject()
        out.endObject()
        return EvidenceJSON.finish(&out)
    }
}
