#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The real programs the lab runs — the demo's and the end-to-end tests' servers and clients —
/// written once here. Python 3 (Debian's) is the one interpreter they need.
public enum LabScripts {
    /// Answers every A question with `address` and every other question with no answer
    /// (RFC 1035 §4.1: the question echoed, one answer by a compression pointer to it).
    public static func dnsResponder(bind: String, port: Int = 53, answer address: String) -> String {
        """
        import socket, struct
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('\(bind)', \(port)))
        while True:
            q, peer = s.recvfrom(512)
            end = 12
            while q[end] != 0: end += q[end] + 1
            question = q[12:end + 5]
            qtype = struct.unpack('>H', q[end + 1:end + 3])[0]
            answers = b'\\xc0\\x0c' + struct.pack('>HHIH', 1, 1, 60, 4) + socket.inet_aton('\(address)') if qtype == 1 else b''
            header = q[:2] + struct.pack('>HHHHH', 0x8180, 1, 1 if answers else 0, 0, 0)
            s.sendto(header + question + answers, peer)
        """
    }

    /// Sends every datagram back upper-cased.
    public static func udpEcho(bind: String, port: Int) -> String {
        """
        import socket
        s = socket.socket(socket.AF_INET6 if ':' in '\(bind)' else socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(('\(bind)', \(port)))
        while True:
            data, peer = s.recvfrom(65535)
            s.sendto(data.upper(), peer)
        """
    }

    /// `count` parallel GETs of `url`; prints how many returned `expected`.
    public static func parallelFetch(_ url: String, count: Int, expected: String) -> String {
        """
        import concurrent.futures, urllib.request
        def fetch(_):
            return urllib.request.urlopen('\(url)', timeout=30).read()
        with concurrent.futures.ThreadPoolExecutor(max_workers=\(count)) as pool:
            results = list(pool.map(fetch, range(\(count))))
        print(sum(1 for r in results if r == b'\(expected)'))
        """
    }

    /// Sends `message` to a UDP echo, retrying, and prints the answer.
    public static func udpAsk(_ host: String, port: Int, message: String) -> String {
        """
        import socket
        s = socket.socket(socket.AF_INET6 if ':' in '\(host)' else socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(2)
        for _ in range(10):
            s.sendto(b'\(message)', ('\(host)', \(port)))
            try:
                print(s.recvfrom(65535)[0].decode()); break
            except socket.timeout:
                pass
        """
    }

    /// The Python interpreter itself, not a wrapper script (pyenv's shim would survive a kill of
    /// itself and leave a server running).
    public static let python: String = {
        let output = try? ExternalCommand.run(["python3", "-c", "import sys; print(sys.executable)"])
        return output?.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) ?? "python3"
    }()

    /// Starts `arguments` in `namespace` with its output discarded.
    public static func start(_ arguments: [String], in namespace: NetworkNamespace) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        process.arguments = Array(namespace.command(arguments).dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends a started program. SIGKILL, because a child can inherit a blocked SIGTERM and
    /// outlive a polite request.
    public static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits until something accepts TCP connections at `host`:`port`, asked from `namespace`.
    public static func waitForListener(_ host: String, _ port: Int, from namespace: NetworkNamespace) throws(CommandError) {
        let probe = "import socket,time\nfor _ in range(100):\n    try:\n        socket.create_connection(('\(host)', \(port)), 1).close(); break\n    except OSError:\n        time.sleep(0.05)\nelse:\n    raise SystemExit(1)"
        try namespace.run([python, "-c", probe])
    }
}
