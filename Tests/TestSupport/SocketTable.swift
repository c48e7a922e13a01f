import Foundation

/// What the kernel holds for this network namespace's sockets, asked of ss(8): a test waits until
/// a server has accepted its clients, or has queued a reply nobody reads, rather than sleeping a
/// fixed time and hoping it has.
package enum SocketTable {
    /// Connections the TCP listener on `port` has not accepted yet (its accept queue).
    package static func unacceptedTCP(port: Int) throws -> Int {
        try column(1, of: ss(["-Hltn", "sport = :\(port)"])).reduce(0, +)
    }

    /// Connections the Unix-socket listener at `path` has not accepted yet (its accept queue).
    package static func unacceptedUnix(path: String) throws -> Int {
        try column(2, of: ss(["-Hlx", "src", path])).reduce(0, +)
    }

    /// For each connection the TCP server on `port` holds, the bytes it has sent that the peer
    /// has not taken: above zero once a client that stopped reading has filled its buffers.
    package static func unsentTCP(port: Int) throws -> [Int] {
        try column(2, of: ss(["-Htn", "sport = :\(port)"]))
    }

    /// For each connection the server at the Unix socket `path` accepted and still holds open,
    /// the bytes it has sent that the client has not read.
    package static func unreadRepliesUnix(path: String) throws -> [Int] {
        try column(3, of: ss(["-Hx", "state", "connected", "src", path]))
    }

    private static func ss(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "ss \(arguments) exited \(process.terminationStatus)"])
        }
        return text
    }

    /// The `index`th whitespace-separated number of every line; a line without one is an error,
    /// never a zero.
    private static func column(_ index: Int, of text: String) throws -> [Int] {
        try text.split(separator: "\n").map { line in
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count > index, let value = Int(fields[index]) else {
                throw CocoaError(.formatting, userInfo: [NSLocalizedDescriptionKey: "ss printed \(line)"])
            }
            return value
        }
    }
}
