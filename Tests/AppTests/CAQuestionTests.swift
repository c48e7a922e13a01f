import Foundation
import Testing
import App
import Shared
import TestSupport

/// The CA's questions over a real data directory, with the settings seam scripted where a failure
/// to save has to be made (root can write any file).
@Suite struct CAQuestionTests {
    struct CannotWrite: Error {}

    /// Settings whose reading is the real file's and whose writing always fails.
    private func unwritableSettings(_ data: URL) -> SettingsStore {
        let file = DataDirectoryLayout.settings(in: data)
        return SettingsStore(location: file.path, reading: { try? Data(contentsOf: file) }, writing: { _ in throw CannotWrite() })
    }

    @Test("remove turns inspection off first; when that cannot be saved the CA is left exactly as it was")
    func removeNeedsInspectionOff() throws {
        let data = TemporaryDirectory("tv-caq")
        let real = CAQuestion(dataDirectory: data.url.path)
        _ = try real.create()
        try real.settings.save(AppSettings(tlsInspectionEnabled: true))
        let keyBefore = try Data(contentsOf: DataDirectoryLayout.caKey(in: data.url))

        let blocked = CAQuestion(dataDirectory: data.url.path, settings: unwritableSettings(data.url))
        #expect(throws: QuestionFailure.self) { try blocked.remove() }
        #expect(try Data(contentsOf: DataDirectoryLayout.caKey(in: data.url)) == keyBefore)
        #expect(real.show().statusWord == "created")

        let removal = try real.remove()
        #expect(removal.removed && removal.turnedInspectionOff)
        #expect(try real.settings.load().tlsInspectionEnabled == false)
        #expect(real.show().statusWord == "notCreated")
        #expect(removal.lines.joined().contains("history and the captures"))
    }

    @Test("remove refuses over a settings file that cannot be read, and the CA stays")
    func removeOverUnreadableSettings() throws {
        let data = TemporaryDirectory("tv-caq")
        let question = CAQuestion(dataDirectory: data.url.path)
        _ = try question.create()
        try Data("{not json".utf8).write(to: DataDirectoryLayout.settings(in: data.url))
        #expect(throws: QuestionFailure.self) { try question.remove() }
        #expect(question.show().statusWord == "created")
    }

    @Test("show: none, created (with facts the web app reads), unreadable (with the problem, creation not offered)")
    func showReports() throws {
        let data = TemporaryDirectory("tv-caq")
        let question = CAQuestion(dataDirectory: data.url.path)
        let none = question.show()
        #expect(none.statusWord == "notCreated" && none.facts == nil)
        for (key, value) in [("canCreate", "true"), ("canRemake", "false"), ("canRemove", "false"), ("inspection", "false"),
                             ("status", "\"notCreated\""), ("setup.stage", "\"none\"")] {
            #expect(try PythonJSON.value(none.json, key) == value, "\(key)")
        }
        _ = try question.create()
        let created = question.show()
        #expect(try PythonJSON.value(created.json, "status") == "\"created\"")
        #expect(try PythonJSON.value(created.json, "subject") == "\"CN=TunnelVision Local CA, O=TunnelVision (this machine only)\"")
        #expect(try PythonJSON.value(created.json, "canCreate") == "false")
        #expect(try PythonJSON.value(created.json, "canRemake") == "true")
        #expect(try PythonJSON.value(created.json, "certificate") == "\"\(DataDirectoryLayout.caCertificate(in: data.url).path)\"")
        chmod(DataDirectoryLayout.caKey(in: data.url).path, 0o640)
        let unreadable = question.show()
        #expect(unreadable.statusWord == "unreadable")
        #expect(try PythonJSON.value(unreadable.json, "canCreate") == "false")
        #expect(try PythonJSON.value(unreadable.json, "canRemove") == "true")
        #expect(try PythonJSON.value(unreadable.json, "problem").contains("chmod 600"))
        #expect(throws: QuestionFailure.self) { try question.create() }
    }
}
