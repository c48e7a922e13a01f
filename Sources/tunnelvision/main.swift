#if canImport(Glibc)
import Glibc
#endif
import Linux
import Shared

// What the person started us with ignored is passed on to CMD ignored, as a shell would; read
// before the line below changes SIGPIPE.
InheritedSignals.record()
// A closed pipe is an ordinary end of output, not a reason to die by signal.
signal(SIGPIPE, SIG_IGN)
HeapPolicy.keepGrowth()

let invocation: Invocation
do {
    invocation = try Invocation.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("tunnelvision: \(error)\nRun 'tunnelvision --help' for usage.")
    exit(2)
}

// The monitors run for hours: their heap must give a burst's memory back (HeapPolicy).
switch invocation {
case .run, .up: HeapPolicy.useOneArena()
default: break
}

switch invocation {
case let .help(topic):
    guard let text = HelpText.text(for: topic) else {
        printError("tunnelvision: no help for \(topic ?? "")\n\n\(HelpText.overview)")
        exit(2)
    }
    print(text)
case let .version(json):
    print(json ? "{\"version\":\"\(ProductVersion.current)\"}" : "tunnelvision \(ProductVersion.current)")
case let .packets(path, json):
    exit(PacketsCommand.run(path: path, json: json))
case let .settings(request):
    exit(SettingsCommand.run(request))
case let .run(request):
    exit(await RunCommand.run(request))
case let .stats(dataDirectory, json):
    exit(StatsCommand.run(dataDirectory: dataDirectory, json: json))
case let .analyze(path, dataDirectory, json, workers):
    await AnalyzeCommand.run(path: path, dataDirectory: dataDirectory, json: json, workers: workers)
case let .captures(request):
    exit(await CapturesCommand.run(request))
case let .audit(request):
    exit(await AuditCommand.run(request))
case let .auditRecord(request):
    exit(await AuditCommand.record(request))
case let .storage(request):
    exit(await StorageCommand.run(request))
case let .flows(request):
    exit(await FlowsCommand.run(request))
case let .activity(request):
    exit(await ActivityCommand.run(request))
case let .export(request):
    exit(await ExportCommand.run(request))
case let .diagnostics(dataDirectory, json):
    exit(await DiagnosticsCommand.run(dataDirectory: dataDirectory, json: json))
case let .flow(request):
    exit(await FlowCommand.run(request))
case let .live(request):
    exit(await LiveCommand.run(request))
case let .ui(request):
    exit(await UICommand.run(request))
case let .ca(request):
    exit(CACommand.run(request))
case let .up(request):
    exit(await UpCommand.run(request))
case let .down(dataDirectory):
    exit(await ServiceCommands.down(dataDirectory: dataDirectory))
case let .status(dataDirectory, json):
    exit(await ServiceCommands.status(dataDirectory: dataDirectory, json: json))
case let .demo(dataDirectory, json, ui, noOpen):
    exit(await DemoCommand.run(dataDirectory: dataDirectory, json: json, ui: ui, noOpen: noOpen))
}
