#if canImport(Glibc)
import Glibc
#endif
import Posix
import Shared
import Testing
@testable import Linux

/// The decision whether a TUN device's failure passes or stops the tunnel, fed answers directly.
@Suite struct DeviceHealthTests {
    @Test("a device gone (EBADFD, as after ip link del) stops the tunnel at the first read or write, counted")
    func aGoneDeviceStopsAtOnce() {
        var health = DeviceHealth()
        #expect(health.read(.failed(EBADFD), readiness: [.readable, .error]) == .stop(.deviceGone(errno: EBADFD)))
        var writing = DeviceHealth()
        #expect(writing.wrote(refusal: .failed(EBADFD)) == .stop(.deviceGone(errno: EBADFD)))
        #expect(health.counts.readFailures == ["EBADFD": 1])
        #expect(writing.counts.writeDrops == ["EBADFD": 1])
    }

    @Test("a hang-up or error with nothing to read stops the tunnel instead of being read as no more packets")
    func aHangupIsNotAnEmptyRead() {
        var health = DeviceHealth()
        #expect(health.read(.wouldBlock, readiness: .readable) == .carryOn)
        #expect(health.read(.wouldBlock, readiness: .hangup) == .stop(.deviceGone(errno: nil)))
        var erring = DeviceHealth()
        #expect(erring.read(.wouldBlock, readiness: .error) == .stop(.deviceGone(errno: nil)))
    }

    @Test("the same error persistentAfter times in a row stops the tunnel; one fewer does not")
    func aPersistentErrorStops() {
        var health = DeviceHealth()
        for _ in 1..<DeviceHealth.persistentAfter {
            #expect(health.read(.failed(EIO), readiness: .readable) == .carryOn)
        }
        #expect(health.read(.failed(EIO), readiness: .readable)
            == .stop(.deviceReadFailed(errno: EIO, times: DeviceHealth.persistentAfter)))
        #expect(health.counts.readFailures == ["EIO": UInt64(DeviceHealth.persistentAfter)])

        var writing = DeviceHealth()
        for _ in 1..<DeviceHealth.persistentAfter { _ = writing.wrote(refusal: .failed(EINVAL)) }
        #expect(writing.wrote(refusal: .failed(EINVAL))
            == .stop(.deviceWriteFailed(errno: EINVAL, times: DeviceHealth.persistentAfter)))
    }

    @Test("a success, or another errno, between failures starts the run again")
    func aSuccessEndsTheRun() {
        var health = DeviceHealth()
        for round in 0..<(3 * DeviceHealth.persistentAfter) {
            let code = round % 2 == 0 ? EIO : EINVAL
            #expect(health.read(.failed(code), readiness: .readable) == .carryOn)
        }
        for _ in 1..<DeviceHealth.persistentAfter { _ = health.read(.failed(EIO), readiness: .readable) }
        #expect(health.read(.processed(3), readiness: .readable) == .carryOn)
        #expect(health.read(.failed(EIO), readiness: .readable) == .carryOn)
        var writing = DeviceHealth()
        for _ in 1..<DeviceHealth.persistentAfter { _ = writing.wrote(refusal: .failed(EIO)) }
        #expect(writing.wrote(refusal: nil) == .carryOn)
        #expect(writing.wrote(refusal: .failed(EIO)) == .carryOn)
    }

    @Test("a full queue (EAGAIN) and a shortage of buffers (ENOBUFS) are counted as drops, never fatal")
    func transientWriteErrorsAreCounted() {
        var health = DeviceHealth()
        for _ in 0..<(2 * DeviceHealth.persistentAfter) {
            #expect(health.wrote(refusal: .wouldBlock) == .carryOn)
            #expect(health.wrote(refusal: .failed(ENOBUFS), lost: 2) == .carryOn)
        }
        let rounds = UInt64(2 * DeviceHealth.persistentAfter)
        #expect(health.counts.writeDrops == ["EAGAIN": rounds, "ENOBUFS": 2 * rounds])
        #expect(health.counts.writeDropCount == 3 * rounds)
    }

    @Test("each failure reads as its cause and what to do")
    func failuresSayWhy() {
        #expect(TunnelFailure.deviceGone(errno: EBADFD).description.contains("TUN device is gone (EBADFD"))
        #expect(TunnelFailure.deviceReadFailed(errno: EIO, times: 100).description.contains("failed 100 times in a row (EIO"))
        #expect(TunnelFailure.loopFailed(.waitFailed(errno: EINVAL)).description.contains("epoll_wait failed"))
        #expect(SystemError.name(ECONNREFUSED) == "ECONNREFUSED")
        #expect(SystemError.name(99_999) == "errno 99999")
    }
}
