#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
import Shared
import Testing

/// The program behind real sockets: a Python process opens TCP and UDP connections over IPv4 and
/// IPv6 loopback and says, from its own `os.fstat`, `os.getpid` and `os.getuid`, which inode,
/// process and owner each has; the lookup must name the same, through the kernel and /proc.
@Suite("Which program holds a connection", .serialized)
struct SocketOwnerLookupTests {
    static let script = """
        import json, os, socket, sys
        def pair(family, host, kind):
            if kind == "tcp":
                listener = socket.socket(family, socket.SOCK_STREAM)
                listener.bind((host, 0)); listener.listen()
                client = socket.socket(family, socket.SOCK_STREAM)
                client.connect(listener.getsockname()[:2])
                server, _ = listener.accept()
                return client, [listener, server]
            server = socket.socket(family, socket.SOCK_DGRAM); server.bind((host, 0))
            client = socket.socket(family, socket.SOCK_DGRAM); client.connect(server.getsockname()[:2])
            return client, [server]
        held, clients = [], {}
        for name, family, host, kind in [("tcp4", socket.AF_INET, "127.0.0.1", "tcp"), ("tcp6", socket.AF_INET6, "::1", "tcp"),
                                         ("udp4", socket.AF_INET, "127.0.0.1", "udp"), ("udp6", socket.AF_INET6, "::1", "udp")]:
            client, others = pair(family, host, kind)
            held += others
            clients[name] = client
        facts = {"pid": os.getpid(), "uid": os.getuid(), "exe": os.path.realpath("/proc/self/exe"), "sockets": {
            name: {"local": list(c.getsockname()[:2]), "remote": list(c.getpeername()[:2]), "inode": os.fstat(c.fileno()).st_ino}
            for name, c in clients.items()}}
        print(json.dumps(facts), flush=True)
        sys.stdin.readline()
        clients["tcp4"].close()          # the side that closes first waits in TIME_WAIT, held by no file
        print("closed", flush=True)
        sys.stdin.readline()
        """

    struct Facts: Decodable {
        struct Socket: Decodable {
            let local: [Endpoint]
            let remote: [Endpoint]
            let inode: UInt32
        }
        /// A JSON array of [host, port] is mixed: decoded item by item.
        enum Endpoint: Decodable {
            case host(String), port(UInt16)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let port = try? container.decode(UInt16.self) { self = .port(port) } else { self = .host(try container.decode(String.self)) }
            }
        }
        let pid: Int32
        let uid: UInt32
        let exe: String
        let sockets: [String: Socket]
    }

    static func endpoint(_ pair: [Facts.Endpoint]) throws -> IPEndpoint {
        guard pair.count == 2, case .host(let host) = pair[0], case .port(let port) = pair[1],
              let address = IPAddress(parsing: host) else { throw Unreadable(pair: "\(pair)") }
        return IPEndpoint(address: address, port: port)
    }

    struct Unreadable: Error { let pair: String }

    /// `script` running in Python, its standard input and output piped to the test.
    static func python(_ script: String) throws -> (Process, input: Pipe, output: Pipe) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        child.standardInput = input
        child.standardOutput = output
        try child.run()
        return (child, input, output)
    }

    /// Reads one line from `handle`, as the child prints it.
    static func line(_ handle: FileHandle) -> String {
        var bytes = Data()
        while true {
            let chunk = handle.readData(ofLength: 1)
            if chunk.isEmpty || chunk == Data("\n".utf8) { break }
            bytes.append(chunk)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("TCP and UDP over IPv4 and IPv6: the inode, owner, pid, name and executable Python gives for each; a closed socket is gone")
    func namesThePythonProcess() throws {
        let (child, input, output) = try Self.python(Self.script)
        defer {
            if child.isRunning { child.terminate() }
            child.waitUntilExit()
        }
        let facts = try JSONDecoder().decode(Facts.self, from: Data(Self.line(output.fileHandleForReading).utf8))
        let namespace = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)
        #expect(namespace >= 0)
        defer { close(namespace) }
        let lookup = try SocketOwnerLookup(namespaceDescriptor: namespace)

        #expect(facts.sockets.count == 4)
        for (name, socket) in facts.sockets.sorted(by: { $0.key < $1.key }) {
            let key = SocketDiagMessage.Lookup(proto: name.hasPrefix("tcp") ? .tcp : .udp,
                                               local: try Self.endpoint(socket.local), remote: try Self.endpoint(socket.remote))
            #expect(try lookup.socketOwner(key).get() == SocketDiagMessage.Owner(uid: facts.uid, inode: socket.inode), "\(name)")
            guard case .program(let program) = lookup.attribution(of: key) else {
                Issue.record("\(name): \(lookup.attribution(of: key))")
                continue
            }
            #expect(program.pid == facts.pid, "\(name)")
            #expect(program.command.hasPrefix("python3"), "\(name): \(program.command)")
            #expect(program.executable == facts.exe, "\(name)")
            #expect(program.uid == facts.uid && program.user == (getpwuid(facts.uid).map { String(cString: $0.pointee.pw_name) }))
        }
        #expect(lookup.procScans == 1, "one scan of /proc found all four sockets")

        // The client closes first: its TCP connection lingers in TIME_WAIT, held by no process.
        let tcp4 = try #require(facts.sockets["tcp4"])
        let closedKey = SocketDiagMessage.Lookup(proto: .tcp, local: try Self.endpoint(tcp4.local), remote: try Self.endpoint(tcp4.remote))
        input.fileHandleForWriting.write(Data("close\n".utf8))
        #expect(Self.line(output.fileHandleForReading) == "closed")
        #expect(lookup.attribution(of: closedKey) == .socketGone)
        // A 5-tuple nobody ever opened: the kernel has no such socket.
        let never = SocketDiagMessage.Lookup(proto: .tcp, local: IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 1),
                                             remote: IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 2))
        #expect(lookup.attribution(of: never) == .socketGone)
        if case .failure(let failure) = lookup.socketOwner(never) { #expect(failure == .kernel(errno: ENOENT)) } else { Issue.record("found a socket for \(never)") }
        input.fileHandleForWriting.write(Data("end\n".utf8))
    }

    static let serialScript = """
        import json, os, socket, sys
        listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(16)
        client = None
        while sys.stdin.readline():
            if client: client.close()
            client = socket.create_connection(listener.getsockname())
            print(json.dumps({"local": list(client.getsockname()), "remote": list(client.getpeername()),
                              "inode": os.fstat(client.fileno()).st_ino, "fd": client.fileno(), "pid": os.getpid()}), flush=True)
        """

    struct Connection: Decodable {
        let local: [Facts.Endpoint]
        let remote: [Facts.Endpoint]
        let inode: UInt32
        let fd: Int32
        let pid: Int32
    }

    @Test("a program that closes each connection and opens the next is named every time from its held /proc directory, without listing /proc again")
    func namesSerialConnections() throws {
        let (child, input, output) = try Self.python(Self.serialScript)
        defer {
            // Its standard input closed, the script's loop ends and it exits.
            try? input.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        let namespace = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)
        defer { close(namespace) }
        let lookup = try SocketOwnerLookup(namespaceDescriptor: namespace)
        var descriptors: Set<Int32> = []
        for round in 0..<5 {
            input.fileHandleForWriting.write(Data("next\n".utf8))
            let connection = try JSONDecoder().decode(Connection.self, from: Data(Self.line(output.fileHandleForReading).utf8))
            descriptors.insert(connection.fd)
            let key = SocketDiagMessage.Lookup(proto: .tcp, local: try Self.endpoint(connection.local), remote: try Self.endpoint(connection.remote))
            guard case .program(let program) = lookup.attribution(of: key) else {
                Issue.record("round \(round): \(lookup.attribution(of: key))")
                continue
            }
            #expect(program.pid == connection.pid && program.command.hasPrefix("python3"), "round \(round)")
        }
        #expect(descriptors.count == 1, "each new connection took the closed one's descriptor: \(descriptors)")
        #expect(lookup.procScans == 1, "only the first connection listed /proc")
    }
}
