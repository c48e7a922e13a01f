#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Testing
import TestSupport

/// The web app's door seen from another local user's side, as the issue found it open: root runs
/// `tunnelvision ui` on a display, a browser is opened (a stand-in `xdg-open` that records how it
/// was called, then opens what it was given), and a throwaway unprivileged user reads every
/// process's arguments and environment it can see, tries the page the browser was opened on, asks
/// `ui link` and the link socket itself, and tries every key-like string it found. Needs root
/// (useradd, runuser); the user is removed whatever happens.
@Suite("the web door, from another user's side", .serialized)
struct WebDoorOtherUserTests {
    /// A system user with no home and no shell, made for one test.
    final class ThrowawayUser {
        let name: String

        init() throws {
            name = "tvdoor" + String(UInt32.random(in: .min ... .max), radix: 16)
            let made = try BuiltProduct.run(URL(fileURLWithPath: "/usr/sbin/useradd"),
                                            ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name])
            guard made.status == 0 else { throw RawHTTPClient.Failure(description: "useradd: \(made.err)") }
        }

        deinit { _ = try? BuiltProduct.run(URL(fileURLWithPath: "/usr/sbin/userdel"), ["--force", name]) }

        /// `arguments` run as this user (runuser: no password, no session), with a plain PATH.
        func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            try BuiltProduct.run(URL(fileURLWithPath: "/usr/sbin/runuser"),
                                 ["-u", name, "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin"] + arguments)
        }
    }

    /// A stand-in `xdg-open`: writes its arguments and environment to RECORD, waits for RECORD/go,
    /// then does what a browser does with the page — follows its refresh — with curl.
    static func fakeOpener(in directory: URL, record: URL) throws {
        let script = """
        #!/bin/bash
        printf '%s\\n' "$@" > '\(record.path)/argv'
        env > '\(record.path)/environ'
        until [ -e '\(record.path)/go' ]; do sleep 0.05; done
        url=$(sed -n 's/.*content="0; url=\\([^"]*\\)".*/\\1/p' "$1")
        curl -s -o /dev/null -w '%{http_code}' "$url" > '\(record.path)/opened.tmp'
        mv '\(record.path)/opened.tmp' '\(record.path)/opened'

        """
        let opener = directory.appendingPathComponent("xdg-open")
        try Data(script.utf8).write(to: opener)
        chmod(opener.path, 0o755)
    }

    /// Every 64-hex-digit run and every `key=` value in `text`: anything that looks like a key.
    static func keyLike(_ text: String) -> Set<String> {
        var found = Set<String>()
        for pattern in ["[0-9a-fA-F]{64}", "key=([^&\\s\"']+)"] {
            let expression = try! NSRegularExpression(pattern: pattern)
            for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
                if let swiftRange = Range(range, in: text) { found.insert(String(text[swiftRange])) }
            }
        }
        return found
    }

    @Test("another user finds no key in any process's arguments or environment, cannot read the browser's page, cannot ask for an address, and every key-like string it tries is refused; the owner's key works once")
    func otherUser() async throws {
        try #require(geteuid() == 0, "useradd and runuser need root: run scripts/test as root")
        let intruder = try ThrowawayUser()
        let work = TemporaryDirectory("web-door")
        let bin = work.url.appendingPathComponent("bin"), record = work.url.appendingPathComponent("record")
        let runtime = work.url.appendingPathComponent("runtime")
        for directory in [bin, record, runtime] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        try Self.fakeOpener(in: bin, record: record)
        let environment = ["PATH": "\(bin.path):/usr/sbin:/usr/bin:/sbin:/bin", "DISPLAY": ":99", "XDG_RUNTIME_DIR": runtime.path,
                           "HOME": "/root", "LANG": "C.UTF-8"]
        let ui = try await RunningUI(arguments: [], environment: environment, data: work)

        // The browser is being opened: its opener waits for the test, so it is there to be seen.
        let argvFile = record.appendingPathComponent("argv").path
        #expect(await eventually(within: .seconds(10)) { FileManager.default.fileExists(atPath: argvFile) }, "xdg-open never ran")
        let argv = try String(contentsOfFile: argvFile, encoding: .utf8).split(separator: "\n").map(String.init)
        let page = try #require(argv.first, "xdg-open had no argument")
        #expect(argv.count == 1 && page.hasPrefix(runtime.path + "/tunnelvision-open-") && page.hasSuffix(".html"), "\(argv)")
        let openerEnvironment = try String(contentsOfFile: record.appendingPathComponent("environ").path, encoding: .utf8)
        #expect(Self.keyLike(argv.joined(separator: "\n") + openerEnvironment).isEmpty, "xdg-open was given a key")
        let status = try #require(PathStatus.of(page))
        #expect(status.kind == .regularFile && status.mode == 0o600 && status.owner == 0)

        // What the other user can see: every process's arguments, and whatever environments it may read.
        let scan = """
        for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ; do
          [ -r "$f" ] && { echo "== $f"; tr '\\0' '\\n' < "$f" 2>/dev/null; echo; }
        done
        echo "== page"; cat '\(page)'
        """
        let seen = try intruder.run(["/bin/bash", "-c", scan])
        #expect(seen.out.contains("xdg-open\n\(page)"), "the scan did not see xdg-open's arguments (\(seen.out.count) bytes)")
        #expect(seen.out.contains("tunnelvision\nui\n--json"), "the scan did not see the server's arguments")
        #expect(seen.err.contains("Permission denied"), "the page was readable: \(seen.err)")
        var candidates = Self.keyLike(seen.out)

        // Asking the running server for an address: through the command, and through the socket itself.
        let link = try intruder.run([try BuiltProduct.url("tunnelvision").path, "ui", "link", "--data-dir", ui.history.path])
        #expect(link.status != 0 && !link.out.contains("http://"), "ui link answered another user: \(link.out)")
        candidates.formUnion(Self.keyLike(link.out + link.err))
        let channel = ui.history.appendingPathComponent("ui")
        let socketPath = channel.path + "/" + (try FileManager.default.contentsOfDirectory(atPath: channel.path).first ?? "")
        // The directory is the first lock; opened for a moment, the second — the peer's uid — still holds.
        chmod(ui.history.path, 0o711)
        chmod(channel.path, 0o711)
        chmod(socketPath, 0o666)
        // Connects and only reads, as 'ui link' does (perl-base is on every Debian).
        let direct = try intruder.run(["perl", "-MIO::Socket::UNIX", "-e",
                                       "my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die \"connect: $!\\n\"; print while <$s>",
                                       socketPath])
        chmod(socketPath, 0o600)
        chmod(channel.path, 0o700)
        chmod(ui.history.path, 0o700)
        #expect(direct.out.hasPrefix("{\"error\": \"only the data directory's owner"), "the socket answered another user: \(direct.out) \(direct.err) \(direct.status)")
        candidates.formUnion(Self.keyLike(direct.out))

        // Every key-like string it found, tried as a key.
        for candidate in candidates {
            let tried = try intruder.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
                                          "\(ui.base)/?key=\(candidate)"])
            #expect(tried.out == "401", "a key found by another user was let in: \(candidate)")
        }
        let guessed = try intruder.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "\(ui.base)/api/flows"])
        #expect(guessed.out == "401")

        // The browser opens its page: the key in it works, and the page goes with it.
        #expect(FileManager.default.createFile(atPath: record.appendingPathComponent("go").path, contents: nil))
        let opened = record.appendingPathComponent("opened").path
        #expect(await eventually(within: .seconds(10)) { FileManager.default.fileExists(atPath: opened) })
        #expect(try String(contentsOfFile: opened, encoding: .utf8) == "303", "the browser's key was not exchanged")
        #expect(await eventually(within: .seconds(10)) { !FileManager.default.fileExists(atPath: page) }, "the page outlived its key")

        // The owner's printed key: once.
        #expect(await (try ui.login(ui.url)) != nil)
        #expect(await (try ui.login(ui.url)) == nil)
        #expect(try await ui.stop() == 0)
        #expect(ui.stderr.contains("'tunnelvision ui link' refused to user"), "\(ui.stderr)")
    }
}
