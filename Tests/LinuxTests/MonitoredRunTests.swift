import Foundation
import Shared
import TestSupport
import Testing
@testable import Linux

/// What `run` tells the person before CMD starts, decided without making anything.
@Suite struct MonitoredRunTests {
    @Test("unreadable settings and a missing resolver are each reported, in that order; the opt-ins are honoured, so not reported")
    func warningsBeforeTheCommandStarts() {
        let problem = SettingsError.corruptData(path: "/d/settings.json", reason: "not JSON")
        let opted = AppSettings(tlsInspectionEnabled: true, plaintextPersistenceEnabled: true)
        let warnings = MonitoredRun.warnings(reading: SettingsReading(settings: opted, problem: problem), announced: [])
        #expect(warnings.count == 2)
        #expect(warnings.first == .settingsUnreadable(problem))
        let unhonoured = warnings.compactMap { warning -> SettingChange? in
            if case let .settingNotHonoured(value, _) = warning { return value }
            return nil
        }
        #expect(unhonoured.isEmpty)
        #expect(warnings.last == .noResolver)
    }

    @Test("unreadable settings refuse the run, naming the problem and the two ways out, unless capture is off for it")
    func unreadableSettingsRefuseTheRunUnlessCaptureIsOff() throws {
        let problem = SettingsError.corruptData(path: "/d/settings.json", reason: "captureEnabled is not Bool")
        let warnings: [RunWarning] = [.noResolver, .settingsUnreadable(problem)]
        var options = MonitoredRun.Options(command: ["true"])
        let refusal = try #require(MonitoredRun.settingsRefusal(warnings, options: options))
        #expect(refusal.contains("captureEnabled is not Bool"))
        #expect(refusal.contains("--no-capture") && refusal.contains("settings set capture on --force"))
        #expect(MonitoredRun.settingsRefusal([.noResolver], options: options) == nil)
        options.captureOff = true
        #expect(MonitoredRun.settingsRefusal(warnings, options: options) == nil)
    }

    @Test("the factory settings with a resolver to announce warn of nothing: retention is for 'settings' to mention")
    func noWarningsForTheFactorySettings() throws {
        let resolver = try #require(IPAddress(parsing: "198.19.0.2"))
        #expect(MonitoredRun.warnings(reading: SettingsReading(settings: .default, problem: nil), announced: [resolver]).isEmpty)
    }

    @Test("each failure says what to do and exits as a shell would")
    func failures() {
        let notRoot = RunFailure.notRoot(command: "run", makes: "a network namespace and a TUN device", retry: "tunnelvision run -- curl x")
        #expect(notRoot.description == "run needs root (it makes a network namespace and a TUN device): sudo tunnelvision run -- curl x")
        #expect(RunFailure.commandNotFound("nope").exitStatus == 127 && RunFailure.commandNotFound("nope").description == "nope: command not found")
        #expect(notRoot.exitStatus == 1 && RunFailure.setUp("x").exitStatus == 1 && RunFailure.noTUNDevice.exitStatus == 1)
    }

    @Test("a data directory that is a file is refused as a data-directory failure naming it, before anything is made (root)")
    func aFileForADataDirectoryIsATypedFailure() throws {
        let directory = TemporaryDirectory("run-data")
        let file = directory.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        var options = MonitoredRun.Options(command: ["true"])
        options.dataDirectory = file.path
        do {
            _ = try MonitoredRun(options: options, environment: ProcessInfo.processInfo.environment)
            Issue.record("a file was taken for a data directory")
        } catch {
            guard case .dataDirectory(let problem) = error else {
                Issue.record("refused as \(error), not as a data-directory failure")
                return
            }
            #expect(problem.path == file.path && error.exitStatus == 1)
            #expect(error.description.contains(file.path))
        }
    }
}
