import Foundation

/// What `tvlab bench tunnel` reads from `iperf3 -c … -J`: the rate the receiving side counted
/// over the whole test (`end.sum_received.bits_per_second`) — the receiver's figure, because
/// bytes still in a send buffer when the test ends were never carried. With `-R` the receiver is
/// the client, and the same field holds the download rate.
package struct IperfReport: Sendable, Equatable {
    package let receivedBitsPerSecond: Double

    package init(receivedBitsPerSecond: Double) {
        self.receivedBitsPerSecond = receivedBitsPerSecond
    }

    /// Why a report gave no figure; each case says what the person should look at.
    package enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not a JSON object: iperf3 did not run, or printed something else (its version?).
        case notJSON
        /// iperf3 reported a failure of its own (`"error"`), e.g. it could not reach the server.
        case iperf(String)
        /// A JSON object without `end.sum_received.bits_per_second`: a test cut short.
        case missingFigure

        package var description: String {
            switch self {
            case .notJSON: "iperf3 printed no JSON report"
            case .iperf(let message): "iperf3: \(message)"
            case .missingFigure: "iperf3's report has no end.sum_received.bits_per_second"
            }
        }
    }

    package static func read(_ json: Data) -> Result<IperfReport, ReadError> {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: json)
        } catch {
            return .failure(.notJSON)
        }
        if let message = document.error { return .failure(.iperf(message)) }
        guard let rate = document.end?.sumReceived?.bitsPerSecond, rate.isFinite, rate >= 0 else {
            return .failure(.missingFigure)
        }
        return .success(IperfReport(receivedBitsPerSecond: rate))
    }

    /// Only the fields read; iperf3's many others are ignored.
    private struct Document: Decodable {
        struct End: Decodable {
            struct Sum: Decodable {
                let bitsPerSecond: Double?
                enum CodingKeys: String, CodingKey { case bitsPerSecond = "bits_per_second" }
            }
            let sumReceived: Sum?
            enum CodingKeys: String, CodingKey { case sumReceived = "sum_received" }
        }
        let end: End?
        let error: String?
    }
}
