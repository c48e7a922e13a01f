import Foundation
import Bench
import Testing

/// Reading iperf3's `-J` report: hand-written documents in iperf3 3.12's shape, cut to the fields
/// that matter plus a few neighbours that must be ignored.
@Suite("IperfReport")
struct IperfReportTests {
    @Test("the rate is the receiver's (sum_received), not the sender's")
    func receiverRate() throws {
        let json = """
        {
          "start": { "version": "iperf 3.12", "test_start": { "protocol": "TCP", "num_streams": 1, "duration": 4 } },
          "intervals": [ { "sum": { "start": 0, "end": 1, "bytes": 1875000000, "bits_per_second": 15000000000 } } ],
          "end": {
            "sum_sent":     { "start": 0, "end": 4.000041, "seconds": 4.000041, "bytes": 7512000000,
                              "bits_per_second": 15024000000.5, "retransmits": 0, "sender": true },
            "sum_received": { "start": 0, "end": 4.000321, "seconds": 4.000321, "bytes": 7500000000,
                              "bits_per_second": 14998796409.125, "sender": true },
            "cpu_utilization_percent": { "host_total": 61.2 }
          }
        }
        """
        let report = try IperfReport.read(Data(json.utf8)).get()
        #expect(report.receivedBitsPerSecond == 14_998_796_409.125)
    }

    @Test("iperf3's own error is passed on in its words")
    func iperfError() {
        let json = """
        { "start": { "connected": [] }, "intervals": [], "end": {},
          "error": "unable to connect to server - server may have stopped running or use a different port" }
        """
        #expect(IperfReport.read(Data(json.utf8)) ==
                .failure(.iperf("unable to connect to server - server may have stopped running or use a different port")))
    }

    @Test("a report cut short has no figure, and text that is not JSON is said to be so")
    func unusable() {
        let cut = #"{ "start": {}, "intervals": [], "end": { "sum_sent": { "bits_per_second": 1e9 } } }"#
        #expect(IperfReport.read(Data(cut.utf8)) == .failure(.missingFigure))
        #expect(IperfReport.read(Data("iperf3: error - the server is busy running a test\n".utf8)) == .failure(.notJSON))
        #expect(IperfReport.read(Data()) == .failure(.notJSON))
        let negative = #"{ "end": { "sum_received": { "bits_per_second": -1 } } }"#
        #expect(IperfReport.read(Data(negative.utf8)) == .failure(.missingFigure))
    }
}
