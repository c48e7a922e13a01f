import Foundation
import Testing
@testable import App
import Shared

@Suite("Where a run's history is read again")
struct HistoryWhereaboutsTests {
    @Test("a run through sudo into root's directory is read through sudo, without naming the directory")
    func sudoDefault() {
        let command = HistoryWhereabouts.readingCommand(dataDirectory: URL(fileURLWithPath: DataDirectory.systemPath),
                                                        isRoot: true, viaSudo: true)
        #expect(command == "sudo tunnelvision flows")
    }

    @Test("a run through sudo into another directory names it")
    func sudoElsewhere() {
        let command = HistoryWhereabouts.readingCommand(dataDirectory: URL(fileURLWithPath: "/srv/tv/"),
                                                        isRoot: true, viaSudo: true)
        #expect(command == "sudo tunnelvision flows --data-dir /srv/tv")
    }

    @Test("root without sudo reads it as root, with no sudo to type")
    func rootWithoutSudo() {
        let command = HistoryWhereabouts.readingCommand(dataDirectory: URL(fileURLWithPath: DataDirectory.systemPath),
                                                        isRoot: true, viaSudo: false)
        #expect(command == "tunnelvision flows")
    }

    @Test("a person's own directory is named, since another user's default differs")
    func ordinaryUser() {
        let command = HistoryWhereabouts.readingCommand(dataDirectory: URL(fileURLWithPath: "/home/ana/.local/share/tunnelvision"),
                                                        isRoot: false, viaSudo: false)
        #expect(command == "tunnelvision flows --data-dir /home/ana/.local/share/tunnelvision")
    }

    @Test("someone not root looking in their default directory is told where sudo's runs went")
    func missingHint() {
        let hint = HistoryWhereabouts.missingHistoryHint(dataDirectory: URL(fileURLWithPath: "/home/ana/x"),
                                                         isRoot: false, usedDefault: true)
        #expect(hint?.contains("sudo tunnelvision flows") == true)
        #expect(hint?.contains(DataDirectory.systemPath) == true)
        #expect(HistoryWhereabouts.missingHistoryHint(dataDirectory: URL(fileURLWithPath: "/x"), isRoot: true,
                                                      usedDefault: true) == nil)
        #expect(HistoryWhereabouts.missingHistoryHint(dataDirectory: URL(fileURLWithPath: "/x"), isRoot: false,
                                                      usedDefault: false) == nil)
    }
}
