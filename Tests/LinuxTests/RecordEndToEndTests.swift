import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// The app half end to end: real traffic through `tunnelvision run` in a lab, then every command
/// that reads the record, each checked by an outside reader — Python's `json` for what is printed,
/// tshark for the bytes, the per-flow capture and the activity counts. Needs root.
@Suite("what a run recorded, read back by every command", .serialized)
struct RecordEndToEndTests {
    /// Reads the record the way a script would; prints one "ok NAME" or "bad NAME: why" per check.
    static let checks = #"""
    import json, subprocess, sys, glob, decimal, datetime, os, shutil
    binary, data, work = sys.argv[1], sys.argv[2], sys.argv[3]
    def tv(*args):
        out = subprocess.run([binary, *args, "--data-dir", data], capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"bad {args[0]}: exit {out.returncode}: {out.stderr}")
        return out.stdout
    def report(name, good, why=""):
        print(("ok " if good else "bad ") + name + ("" if good else ": " + why))

    flows = json.loads(tv("flows", "--json"))
    web = [f for f in flows["flows"] if f["protocol"] == "tcp" and (f["remote"] or {}).get("port") == 8080]
    report("flows lists both downloads", len(web) == 2, json.dumps(flows)[:800])
    report("flows counts each download's bytes", all(f["bytesIn"] >= 300_000 for f in web), str([f["bytesIn"] for f in web]))

    flow = web[0]
    inspector = json.loads(tv("flow", str(flow["id"]), "--json"))
    # CMD has a PID namespace of its own: the pids it saw for its curls are not the ones the
    # tunnel's namespace sees, which the flows give; two downloads are two processes either way.
    inner = {int(p) for p in open(f"{work}/pids").read().split()}
    curl = os.path.realpath(shutil.which("curl"))
    programs = [f["program"] for f in web]
    report("each download names the curl that made it: its own pid, name, executable and user",
           all(p and p["state"] == "program" and p["command"] == "curl" and p["executable"] == curl and p["user"] == "root"
               and p["uid"] == 0 and p["pid"] > 0 for p in programs) and len({p["pid"] for p in programs}) == len(inner) == 2,
           f"{programs} vs the pids inside {inner}")
    said = tv("flow", str(flow["id"]))
    report("the inspector says the same program, in JSON and in words", inspector["program"] == flow["program"]
           and f"curl (pid {flow['program']['pid']}, {curl}), user root" in said,
           json.dumps(inspector["program"]) + " " + said[:600].replace("\n", " | "))
    count = inspector["storedPackets"]
    report("the inspector holds the flow's packets", count == flow["packets"], f"{count} vs {flow['packets']}")
    frames = {}
    same = 0
    numbers = sorted({1, 2, count // 2, count})
    for n in numbers:
        detail = json.loads(tv("flow", str(flow["id"]), "--packet", str(n), "--json"))
        cap = detail["capture"]
        path = glob.glob(f"{data}/captures/tunnelvision-{cap['file']:06d}-*.pcap")[0]
        if path not in frames:
            dump = subprocess.run(["tshark", "-r", path, "-o", "frame.show_file_off:TRUE", "-T", "json", "-x"],
                                  capture_output=True, text=True, check=True)
            frames[path] = {int(p["_source"]["layers"]["frame"]["frame.file_off"]): p["_source"]["layers"]["frame_raw"][0]
                            for p in json.loads(dump.stdout)}
        raw = frames[path].get(cap["offset"]) or frames[path].get(cap["offset"] + 16)
        same += 1 if raw and raw == detail["bytes"] else 0
    report("packet bytes equal tshark's for the same records", same == len(numbers), f"{same} of {numbers}")

    single = f"{work}/flow.pcap"
    tv("flow", str(flow["id"]), "--pcap", single)
    ports = subprocess.run(["tshark", "-r", single, "-T", "fields", "-e", "tcp.port"], capture_output=True, text=True,
                           check=True).stdout.split()
    report("the per-flow capture holds exactly that flow's packets", len(ports) == count and all("8080" in p for p in ports),
           f"{len(ports)} frames, {count} stored")

    export = f"{work}/export.json"
    tv("export", "-o", export)
    document = json.load(open(export))
    exported = {c["id"]: c for c in document["connections"]}
    report("the export holds every flow", set(exported) == {f["id"] for f in flows["flows"]},
           f"{sorted(exported)} vs {sorted(f['id'] for f in flows['flows'])}")
    report("the export's bytes are the history's", all(exported[f["id"]]["bytesIn"] == f["bytesIn"]
                                                       and exported[f["id"]]["bytesOut"] == f["bytesOut"] for f in flows["flows"]))

    times = []
    for path in sorted(glob.glob(f"{data}/captures/*.pcap")):
        times += [decimal.Decimal(t) for t in subprocess.run(["tshark", "-r", path, "-T", "fields", "-e", "frame.time_epoch"],
                                                             capture_output=True, text=True, check=True).stdout.split()]
    axis = json.loads(tv("activity", "--json"))
    def epoch(text):
        return decimal.Decimal(int(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()))
    wrong = []
    for bar in axis["bars"]:
        start = epoch(bar["start"])
        counted = sum(1 for t in times if start <= t < start + decimal.Decimal(bar["seconds"]))
        if counted != bar["packets"]:
            wrong.append((bar["start"], bar["packets"], counted))
    report("the axis counts what the captures hold per bar", not wrong and axis["totalPackets"] == len(times),
           f"{wrong[:5]}, total {axis['totalPackets']} vs {len(times)}")

    storage = json.loads(tv("storage", "--json"))
    report("storage counts the history's connections", storage["history"]["connections"] == len(flows["flows"])
           and storage["captures"]["files"] == len(glob.glob(f"{data}/captures/*.pcap")), json.dumps(storage)[:400])
    captures = json.loads(tv("captures", "--json"))
    report("captures lists the files tshark read", len(captures["captures"]) == len(glob.glob(f"{data}/captures/*.pcap")),
           json.dumps(captures)[:400])
    """#

    @Test("flows, flow, --packet, --pcap, export, activity, storage and captures agree with tshark and Python's json")
    func everyCommandReadsTheRun() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("record-e2e")
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data((0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) })
            .write(to: www.appendingPathComponent("file.bin"))
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                            "--directory", www.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        let data = work.url.appendingPathComponent("data")
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        let url = "http://\(Lab.serverIPv4):8080/file.bin"
        // Each download takes a fifth of a second: its curl is still there when /proc is searched
        // for it. (A process that ends within a millisecond of connecting may be gone first; its
        // flow then says so, as SocketOwnerLookupTests checks.)
        let curl = "curl -sS --limit-rate 2M -o /dev/null \(url)"
        let run = try BuiltProduct.run(ip, Array(lab.host.command([tunnelvision.path, "run", "--data-dir", data.path, "--",
                                                                   "bash", "-c", "\(curl) & echo $! >\(work.url.path)/pids; "
                                                                   + "wait $! || exit 1; \(curl) & echo $! >>\(work.url.path)/pids; wait $!"])
            .dropFirst()))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("read it with: tunnelvision flows --data-dir \(data.path)"), "\(run.err)")

        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                          ["-c", Self.checks, tunnelvision.path, data.path, work.url.path])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 12, "\(result.out)\n\(result.err)")
        for line in lines { #expect(line.hasPrefix("ok "), "\(line)") }
    }
}
