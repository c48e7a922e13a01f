import Foundation
import Shared

/// A release diff as a report reads it (`audit diff`, the Audit screen): the unexpected new
/// domains first — new and not on the allowlist — then every status, then TLS changes.
enum AuditDiffPresentation {
    static func text(_ diff: ReleaseDiff, project: AuditProject) -> String {
        var lines = ["Release diff of \(project.name): session \(diff.earlier.id) (\(AuditSessionWording.release(diff.earlierRelease))) → "
                     + "session \(diff.later.id) (\(AuditSessionWording.release(diff.laterRelease)))"]
        lines.append("")
        let unexpected = diff.unexpectedNewDomains
        lines.append(unexpected.isEmpty ? "Unexpected new domains: none." : "Unexpected new domains (new and not on the allowlist):")
        for domain in unexpected { lines.append("  \(domain.host)") }
        func section(_ title: String, _ domains: [DomainComparison]) {
            guard !domains.isEmpty else { return }
            lines.append("")
            lines.append("\(title):")
            for domain in domains { lines.append("  \(domain.host)  \(standing(domain.standing))") }
        }
        section("New", diff.newDomains)
        section("Gone", diff.goneDomains)
        section("In both", diff.domainsInBoth)
        section("Undetermined (a shared address: the name is a candidate only)", diff.undeterminedDomains)
        if !diff.domainsWithTLSChange.isEmpty {
            lines.append("")
            lines.append("TLS versions changed:")
            for domain in diff.domainsWithTLSChange {
                guard case let .inBoth(app, tunnel) = domain.status else { continue }
                for (who, comparison) in [("app", app), ("tunnel", tunnel)] {
                    if case let .different(earlier, later, floor) = comparison {
                        lines.append("  \(domain.host) (\(who)): \(names(earlier)) → \(names(later)), floor \(floor.rawValue)")
                    }
                }
            }
        }
        let unnamed = (diff.earlierUnnamedFlowIDs.count, diff.laterUnnamedFlowIDs.count)
        if unnamed != (0, 0) {
            lines.append("")
            lines.append("Connections without a name: \(unnamed.0) in session \(diff.earlier.id), \(unnamed.1) in session \(diff.later.id).")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ diff: ReleaseDiff, project: AuditProject) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.number("projectID", Int(project.id))
        out.beginObject("earlier")
        out.number("session", Int(diff.earlier.id))
        out.string("release", AuditSessionWording.release(diff.earlierRelease))
        out.endObject()
        out.beginObject("later")
        out.number("session", Int(diff.later.id))
        out.string("release", AuditSessionWording.release(diff.laterRelease))
        out.endObject()
        out.strings("unexpectedNewDomains", diff.unexpectedNewDomains.map(\.host))
        out.beginArray("domains")
        for domain in diff.domains {
            out.beginObject()
            out.string("host", domain.host)
            out.string("standing", standingIdentifier(domain.standing))
            switch domain.status {
            case .new: out.string("status", "new")
            case .gone: out.string("status", "gone")
            case let .inBoth(app, tunnel):
                out.string("status", "inBoth")
                out.key("tls")
                out.beginObject()
                comparison("app", app, into: &out)
                comparison("tunnel", tunnel, into: &out)
                out.endObject()
            case let .undetermined(earlier, later):
                out.string("status", "undetermined")
                out.string("earlierPresence", earlier.rawValue)
                out.string("laterPresence", later.rawValue)
            }
            out.numbers("earlierFlowIDs", (domain.earlier?.flowIDs ?? []).map { Int($0) })
            out.numbers("laterFlowIDs", (domain.later?.flowIDs ?? []).map { Int($0) })
            out.endObject()
        }
        out.endArray()
        out.numbers("earlierUnnamedFlowIDs", diff.earlierUnnamedFlowIDs.map { Int($0) })
        out.numbers("laterUnnamedFlowIDs", diff.laterUnnamedFlowIDs.map { Int($0) })
        out.endObject()
        return out.writer.string
    }

    private static func comparison(_ name: StaticString, _ comparison: TLSVersionComparison, into out: inout JSONWriter) {
        out.beginObject(name)
        switch comparison {
        case let .same(versions):
            out.string("comparison", "same")
            out.strings("versions", versions.map(\.name))
        case let .different(earlier, later, floor):
            out.string("comparison", "different")
            out.strings("earlier", earlier.map(\.name))
            out.strings("later", later.map(\.name))
            out.string("floor", floor.rawValue)
        case let .notCompared(gap):
            out.string("comparison", "notCompared")
            out.string("gap", gap.rawValue)
        }
        out.endObject()
    }

    private static func names(_ versions: [TLSProtocolVersion]) -> String { versions.map(\.name).joined(separator: ", ") }

    private static func standing(_ standing: AllowlistStanding) -> String {
        switch standing {
        case let .listed(entry): "allowed by \(entry.pattern.text)"
        case .unlisted: "not on the allowlist"
        case .allowlistEmpty: "allowlist empty"
        }
    }

    private static func standingIdentifier(_ standing: AllowlistStanding) -> String {
        switch standing {
        case .listed: "listed"
        case .unlisted: "unlisted"
        case .allowlistEmpty: "allowlistEmpty"
        }
    }
}
