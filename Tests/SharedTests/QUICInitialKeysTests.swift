import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct QUICInitialKeysTests {
    typealias RFC = QUICRFCVectors

    @Test("RFC 9001 §A.1: the version 1 client key, IV and hp key of DCID 8394c8f03e515708")
    func version1() throws {
        let keys = try #require(QUICInitialKeys(version: .v1, clientDestinationConnectionID: RFC.clientDestinationConnectionID))
        #expect(keys.version == .v1)
        #expect(keys.key == RFC.V1.key)
        #expect(keys.iv == RFC.V1.iv)
        #expect(keys.headerProtectionKey == RFC.V1.headerProtectionKey)
    }

    @Test("RFC 9369 §A.1: the version 2 client key, IV and hp key of the same DCID")
    func version2() throws {
        let keys = try #require(QUICInitialKeys(version: .v2, clientDestinationConnectionID: RFC.clientDestinationConnectionID))
        #expect(keys.version == .v2)
        #expect(keys.key == RFC.V2.key)
        #expect(keys.iv == RFC.V2.iv)
        #expect(keys.headerProtectionKey == RFC.V2.headerProtectionKey)
    }

    @Test("the client_initial_secret in between matches both RFCs")
    func clientSecrets() throws {
        let cid = [UInt8](RFC.clientDestinationConnectionID)
        let v1 = try #require(QUICInitialKeys.Labels(.v1))
        let v2 = try #require(QUICInitialKeys.Labels(.v2))
        #expect(QUICInitialKeys.secret(of: .client, salt: v1.salt, connectionID: cid).map { Data($0) } == RFC.V1.clientInitialSecret)
        #expect(QUICInitialKeys.secret(of: .client, salt: v2.salt, connectionID: cid).map { Data($0) } == RFC.V2.clientInitialSecret)
    }

    @Test("RFC 9001 and RFC 9369 §A.1: the server's key, IV and hp key of the same DCID, in both versions")
    func serverKeys() throws {
        let cid = RFC.clientDestinationConnectionID
        let v1 = try #require(QUICInitialKeys(version: .v1, clientDestinationConnectionID: cid, sender: .server))
        #expect(v1.key == RFC.ServerV1.key && v1.iv == RFC.ServerV1.iv && v1.headerProtectionKey == RFC.ServerV1.headerProtectionKey)
        let v2 = try #require(QUICInitialKeys(version: .v2, clientDestinationConnectionID: cid, sender: .server))
        #expect(v2.key == RFC.ServerV2.key && v2.iv == RFC.ServerV2.iv && v2.headerProtectionKey == RFC.ServerV2.headerProtectionKey)
    }

    @Test("no keys for a version without known Initial protection")
    func unknownVersions() {
        for raw: UInt32 in [0, 0xff00_001d, 0x1a2a_3a4a, 0x0000_0002] {
            #expect(QUICInitialKeys(version: QUICVersion(rawValue: raw), clientDestinationConnectionID: RFC.clientDestinationConnectionID) == nil)
        }
    }

    @Test("an empty connection ID still gives keys, distinct per version and from the RFC's")
    func emptyConnectionID() throws {
        let v1 = try #require(QUICInitialKeys(version: .v1, clientDestinationConnectionID: Data()))
        let v2 = try #require(QUICInitialKeys(version: .v2, clientDestinationConnectionID: Data()))
        #expect(v1.key.count == 16 && v1.iv.count == 12 && v1.headerProtectionKey.count == 16)
        #expect(v1.key != RFC.V1.key && v1.iv != RFC.V1.iv && v1.headerProtectionKey != RFC.V1.headerProtectionKey)
        #expect(v1.key != v2.key && v1.iv != v2.iv && v1.headerProtectionKey != v2.headerProtectionKey)
        #expect(v1.key != v1.headerProtectionKey)
    }

    @Test("a slice of a datagram as the connection ID gives the same keys")
    func connectionIDSlice() throws {
        let datagram = Data([0xaa, 0xbb]) + RFC.clientDestinationConnectionID + Data([0xcc])
        let keys = try #require(QUICInitialKeys(version: .v1, clientDestinationConnectionID: datagram.dropFirst(2).dropLast()))
        #expect(keys.key == RFC.V1.key)
    }

    @Test("RFC §A.2 header-protection masks of both versions")
    func masks() throws {
        #expect(try QUICHeaderProtection.mask(key: RFC.V1.headerProtectionKey, sample: RFC.V1.sample) == RFC.V1.mask)
        #expect(try QUICHeaderProtection.mask(key: RFC.V2.headerProtectionKey, sample: RFC.V2.sample) == RFC.V2.mask)
        // The sample may be a slice of a datagram.
        let framed = Data([0x01]) + RFC.V1.sample + Data([0x02])
        #expect(try QUICHeaderProtection.mask(key: RFC.V1.headerProtectionKey, sample: framed.dropFirst().dropLast()) == RFC.V1.mask)
    }

    @Test("a key or sample of the wrong size is refused")
    func wrongSizes() {
        let key = RFC.V1.headerProtectionKey
        let sample = RFC.V1.sample
        #expect(throws: QUICInitialError.headerProtectionFailed) { try QUICHeaderProtection.mask(key: key.prefix(15), sample: sample) }
        #expect(throws: QUICInitialError.headerProtectionFailed) { try QUICHeaderProtection.mask(key: key + Data([0]), sample: sample) }
        #expect(throws: QUICInitialError.headerProtectionFailed) { try QUICHeaderProtection.mask(key: Data(), sample: sample) }
        #expect(throws: QUICInitialError.headerProtectionFailed) { try QUICHeaderProtection.mask(key: key, sample: sample.prefix(15)) }
        #expect(throws: QUICInitialError.headerProtectionFailed) { try QUICHeaderProtection.mask(key: key, sample: sample + Data([0])) }
        #expect(throws: QUICInitialError.headerProtectionFailed) { try QUICHeaderProtection.mask(key: key, sample: Data()) }
    }
}
