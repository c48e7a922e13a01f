import Foundation
import Shared

/// The audit's questions (`tunnelvision audit …`, audit.md): projects with their allowlists,
/// host-wide sessions started and ended around a running service, markers, and what a session's
/// traffic shows (findings, a release diff). Recording around one command is `audit record`,
/// which the command drives with `run` (`AuditRecord`).
package struct AuditQuestion: Sendable, Equatable {
    /// A project named by its id or its exact name.
    package enum ProjectReference: Sendable, Equatable {
        case id(Int64)
        case name(String)

        init(_ word: String) { self = Int64(word).map(ProjectReference.id) ?? .name(word) }
    }

    package enum Action: Sendable, Equatable {
        /// Every project with its sessions, and the session recording now.
        case overview
        case createProject(AuditProjectDraft)
        case listProjects
        case showProject(ProjectReference)
        case editProject(ProjectReference, AuditProjectEdit)
        /// Refused while it has sessions unless `confirmed` (`--yes`): they and their markers go.
        case deleteProject(ProjectReference, confirmed: Bool)
        /// A session with its markers; its connections stay, no longer kept as evidence.
        case deleteSession(Int64, confirmed: Bool)
        case sessions(ProjectReference?)
        case start(AuditSessionRequest)
        /// The open session when nil.
        case end(Int64?)
        case mark(SessionMarkerKind)
        case findings(Int64)
        case diff(Int64, Int64)
        /// The report a person hands over (HTML built for printing).
        case report(Int64)
        /// The evidence bundle (a zip) written into `directory` (the current one when nil).
        case export(Int64, directory: String?)
    }

    package var action: Action
    package var dataDirectory: String?

    package init(action: Action, dataDirectory: String? = nil) {
        self.action = action
        self.dataDirectory = dataDirectory
    }

    /// Reads the arguments of `audit` (`--json` aside); `record` and `export` are the command's own.
    package static func parse(_ arguments: [String]) throws(QuestionFailure) -> AuditQuestion {
        var rest = arguments
        let dataDirectory = try QuestionOptions.takeDataDirectory(from: &rest, command: "audit")
        var words = AuditArguments(rest)
        let action: Action
        switch words.next() {
        case "project"?:
            action = try parseProject(&words)
        case "sessions"?:
            action = .sessions(words.next().map(ProjectReference.init))
        case "start"?:
            action = .start(try AuditSessionRequest.parse(&words, command: "audit start"))
        case "delete"?:
            let id = try session(words.nextWord(), command: "audit delete")
            action = .deleteSession(id, confirmed: words.takeFlag("--yes"))
        case "end"?:
            guard let word = words.next() else { action = .end(nil); break }
            action = .end(try session(word, command: "audit end"))
        case "mark"?:
            guard let word = words.next() else {
                throw .usage("audit mark: which marker? (consent, login, logout, or your own words in quotes)")
            }
            action = .mark(try marker(word))
        case "findings"?:
            action = .findings(try session(words.next(), command: "audit findings"))
        case "report"?:
            action = .report(try session(words.next(), command: "audit report"))
        case "export"?:
            action = .export(try session(words.next(), command: "audit export"), directory: nil)
        case "diff"?:
            action = .diff(try session(words.next(), command: "audit diff"), try session(words.next(), command: "audit diff"))
        case let other?:
            throw .usage("audit: unknown action \(other); see 'tunnelvision help audit'")
        case nil:
            action = .overview
        }
        try words.expectEnd(command: "audit")
        return AuditQuestion(action: action, dataDirectory: dataDirectory)
    }

    private static func parseProject(_ words: inout AuditArguments) throws(QuestionFailure) -> Action {
        switch words.next() {
        case "create"?:
            guard let name = words.nextWord() else { throw .usage("audit project create: which name? (audit project create NAME --allow PATTERN…)") }
            var draft = AuditProjectDraft(name: name)
            while let option = words.nextOption() {
                switch option {
                case "--allow": draft.allowlist.append(try allowlistEntry(words.value(of: option, command: "audit project create")))
                case "--bundle-id": draft.bundleIdentifier = try words.value(of: option, command: "audit project create")
                case "--catalogue": draft.catalogueVersion = try words.value(of: option, command: "audit project create")
                default: throw .usage("audit project create: unknown option \(option)")
                }
            }
            return .createProject(draft)
        case "list"?:
            return .listProjects
        case "show"?:
            return .showProject(try project(words.nextWord(), command: "audit project show"))
        case "edit"?:
            let reference = try project(words.nextWord(), command: "audit project edit")
            var edit = AuditProjectEdit()
            while let option = words.nextOption() {
                let command = "audit project edit"
                switch option {
                case "--name": edit.name = try words.value(of: option, command: command)
                case "--allow": edit.allow.append(try allowlistEntry(words.value(of: option, command: command)))
                case "--disallow": edit.disallow.append(try pattern(words.value(of: option, command: command)))
                case "--bundle-id": edit.bundleIdentifier = .some(try words.value(of: option, command: command))
                case "--no-bundle-id": edit.bundleIdentifier = .some(nil)
                case "--catalogue": edit.catalogueVersion = .some(try words.value(of: option, command: command))
                default: throw .usage("\(command): unknown option \(option)")
                }
            }
            return .editProject(reference, edit)
        case "delete"?:
            let reference = try project(words.nextWord(), command: "audit project delete")
            return .deleteProject(reference, confirmed: words.takeFlag("--yes"))
        case let other?:
            throw .usage("audit project: unknown action \(other); it takes create, list, show, edit or delete")
        case nil:
            throw .usage("audit project: what? (create, list, show, edit or delete)")
        }
    }

    /// `PATTERN` or `PATTERN=NOTE` (no pattern holds "=").
    static func allowlistEntry(_ text: String) throws(QuestionFailure) -> AllowlistEntry {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let note = parts.count == 2 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : nil
        return AllowlistEntry(pattern: try pattern(String(parts[0])), note: note?.isEmpty == true ? nil : note)
    }

    static func pattern(_ text: String) throws(QuestionFailure) -> DomainPattern {
        do { return try DomainPattern(parsing: text) } catch {
            throw QuestionFailure(.badParameter, "audit: \(text) is not a host pattern: \(error)",
                                  parameter: .init(name: "allow", problem: error.description))
        }
    }

    static func project(_ word: String?, command: String) throws(QuestionFailure) -> ProjectReference {
        guard let word else { throw .usage("\(command): which project? (its number or name, as 'audit project list' shows)") }
        return ProjectReference(word)
    }

    static func session(_ word: String?, command: String) throws(QuestionFailure) -> Int64 {
        guard let word else { throw .usage("\(command): which session? (its number, as 'audit sessions' shows)") }
        guard let id = Int64(word), id > 0 else { throw .usage("\(command): \(word) is not a session's number") }
        return id
    }

    /// The three fixed markers by the words `audit mark` takes, in the order offered.
    static let fixedMarkers: [(word: String, kind: SessionMarkerKind)] =
        [("consent", .consentGiven), ("login", .loggedIn), ("logout", .loggedOut)]

    /// The three fixed markers by their short names; anything else is a marker in the person's words.
    package static func marker(_ word: String) throws(QuestionFailure) -> SessionMarkerKind {
        if let fixed = fixedMarkers.first(where: { $0.word == word }) { return fixed.kind }
        let label = word.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !label.isEmpty else { throw .usage("audit mark: a marker of your own needs some words") }
        return .custom(label)
    }
}

/// What `audit project edit` changes; nil leaves a field as it is.
package struct AuditProjectEdit: Sendable, Equatable {
    package var name: String?
    /// Appended to the allowlist, in order.
    package var allow: [AllowlistEntry] = []
    package var disallow: [DomainPattern] = []
    package var bundleIdentifier: String??
    package var catalogueVersion: String??

    package init() {}

    /// The draft `project` becomes; `unknownPattern` names a --disallow the allowlist lacks.
    package func applied(to project: AuditProject) throws(QuestionFailure) -> AuditProjectDraft {
        var allowlist = project.allowlist
        for pattern in disallow {
            guard let index = allowlist.firstIndex(where: { $0.pattern == pattern }) else {
                throw QuestionFailure(.notFound, "audit project edit: \(pattern.text) is not in \(project.name)'s allowlist")
            }
            allowlist.remove(at: index)
        }
        return AuditProjectDraft(name: name ?? project.name, bundleIdentifier: bundleIdentifier ?? project.bundleIdentifier,
                                 catalogueVersion: catalogueVersion ?? project.catalogueVersion, allowlist: allowlist + allow)
    }
}

/// A session to start: its project, kind and notes (`--project P (--baseline | --release V[+B])
/// [--notes T]`), shared by `audit start` and `audit record`.
package struct AuditSessionRequest: Sendable, Equatable {
    package var project: AuditQuestion.ProjectReference
    package var kind: AuditSessionKind
    package var notes: String
    /// `audit start --ca-trusted`: the person says the audited programs trust the inspecting CA
    /// (a container's or a device's own store, which this machine cannot read).
    package var caTrustStated = false

    package init(project: AuditQuestion.ProjectReference, kind: AuditSessionKind, notes: String = "", caTrustStated: Bool = false) {
        self.project = project
        self.kind = kind
        self.notes = notes
        self.caTrustStated = caTrustStated
    }

    /// The session's options (`--baseline` alone takes no value).
    package static let options: Set<String> = ["--project", "--baseline", "--release", "--notes", "--ca-trusted"]

    /// Takes the session's options off the front of `words`, leaving the rest (`record`'s run
    /// options and command).
    package static func parse(taking words: inout [String], command: String) throws(QuestionFailure) -> AuditSessionRequest {
        var arguments = AuditArguments(words)
        let request = try parse(&arguments, command: command)
        words = arguments.remaining
        return request
    }

    /// Takes the session's options from `words` and stops at the first word that is not one of
    /// them (left for the caller: `record`'s run options and command).
    static func parse(_ words: inout AuditArguments, command: String) throws(QuestionFailure) -> AuditSessionRequest {
        var project: AuditQuestion.ProjectReference?, kind: AuditSessionKind?, notes = "", stated = false
        while let option = words.peek(), options.contains(option) {
            _ = words.next()
            switch option {
            case "--project": project = AuditQuestion.ProjectReference(try words.value(of: option, command: command))
            case "--ca-trusted":
                guard command == "audit start" else {
                    throw .usage("\(command): --ca-trusted is for 'audit start'; a recorded command trusts the run's own CA")
                }
                stated = true
            case "--baseline":
                guard kind == nil else { throw .usage("\(command): --baseline or --release, not both") }
                kind = .baseline
            case "--release":
                guard kind == nil else { throw .usage("\(command): --baseline or --release, not both") }
                kind = .audit(try release(words.value(of: option, command: command), command: command))
            default: notes = try words.value(of: option, command: command)
            }
        }
        guard let project else { throw .usage("\(command): which project? (--project P, its number or name)") }
        guard let kind else {
            throw .usage("\(command): --baseline (the machine without the audited program) or --release VERSION[+BUILD]")
        }
        return AuditSessionRequest(project: project, kind: kind, notes: notes, caTrustStated: stated)
    }

    /// `VERSION[+BUILD]`: the build after the last "+", none without one.
    package static func release(_ text: String, command: String) throws(QuestionFailure) -> AppRelease {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "+", omittingEmptySubsequences: false)
        let version = parts.count > 1 ? parts.dropLast().joined(separator: "+") : trimmed
        guard !version.isEmpty else { throw .usage("\(command): --release needs a version (VERSION or VERSION+BUILD), not '\(text)'") }
        return AppRelease(version: version, build: parts.count > 1 ? String(parts.last!) : "")
    }
}

/// The words of an `audit` command line, taken in order.
struct AuditArguments {
    private var words: [String]
    private var index = 0

    init(_ words: [String]) { self.words = words }

    func peek() -> String? { index < words.count ? words[index] : nil }
    var remaining: [String] { index < words.count ? Array(words[index...]) : [] }

    mutating func next() -> String? {
        defer { index += 1 }
        return peek()
    }

    /// The next word unless it is an option.
    mutating func nextWord() -> String? {
        guard let word = peek(), !word.hasPrefix("--") else { return nil }
        return next()
    }

    mutating func nextOption() -> String? {
        guard let word = peek(), word.hasPrefix("-") else { return nil }
        return next()
    }

    /// Takes `flag` when it is the next word.
    mutating func takeFlag(_ flag: String) -> Bool {
        guard peek() == flag else { return false }
        index += 1
        return true
    }

    mutating func value(of option: String, command: String) throws(QuestionFailure) -> String {
        guard let value = next() else { throw .usage("\(command): \(option) needs a value") }
        return value
    }

    func expectEnd(command: String) throws(QuestionFailure) {
        if let extra = peek() { throw .usage("\(command): unexpected \(extra)") }
    }
}
