#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PacketTunnel
import Shared

/// What `run --inspect` needs before the loop starts: the person's CA, loaded from the data
/// directory, and the OpenSSL factory of an inspected flow's two legs over it.
enum TunnelInspectionSetup {
    static func factory(dataDirectory: URL, options: InspectionRunOptions) throws(TunnelSessionError) -> OpenSSLSessionFactory {
        let loaded: LocalCA?
        do { loaded = try LocalCA.load(dataDirectory: dataDirectory) } catch { throw .inspection(.caUnreadable(error)) }
        guard let ca = loaded else {
            throw .inspection(.noCA(dataDirectory: dataDirectory.path))
        }
        var keyLog: TLSKeyLog?
        if let path = options.keyLog?.path {
            do {
                keyLog = try TLSKeyLog(path: path) { problem in
                    FileHandle.standardError.write(Data("tunnelvision: the key log: \(problem)\n".utf8))
                }
            } catch {
                throw .inspection(.keyLog(error))
            }
        }
        let authority = ca.authority
        do {
            return try OpenSSLSessionFactory(mint: { host in try authority.mintLeaf(forHost: host) },
                                             upstreamTrust: options.upstreamCA.map(UpstreamTrust.file) ?? .system, keyLog: keyLog)
        } catch {
            throw .inspection(.contexts(error))
        }
    }

    /// Re-read for every attempt, cheaply: the key still there (`ca remove` mid-run stops the next one).
    static func caReady(dataDirectory: URL) -> () -> Bool {
        let key = DataDirectoryLayout.caKey(in: dataDirectory).path
        return { access(key, F_OK) == 0 }
    }
}
