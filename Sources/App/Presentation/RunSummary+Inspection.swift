import Shared

extension RunSummary {
    /// What inspection made of a run's connections, counted by status and, for each status that has
    /// one, by reason — said only for a run that inspected (`run --inspect`).
    struct InspectionTally: Sendable, Equatable {
        package var inspected = 0
        /// Not inspected, passed through untouched; by reason.
        package var notInspected: [InspectionReasonKind: Int] = [:]
        /// Hosts left alone for the run; by reason.
        package var notInspectable: [InspectionReasonKind: Int] = [:]
        /// Broken by inspection; by reason.
        package var inspectionFailed: [InspectionReasonKind: Int] = [:]

        package init(_ connections: [Connection]) {
            for connection in connections {
                let kind = connection.inspectionReason?.kind
                switch connection.tlsStatus {
                case .inspected?: inspected += 1
                case .encrypted? where kind != nil: notInspected[kind!, default: 0] += 1
                case .notInspectable?: notInspectable[kind ?? .refusedCertificate, default: 0] += 1
                case .inspectionFailed?: inspectionFailed[kind ?? .internalError, default: 0] += 1
                default: break
                }
            }
        }

        /// "inspection: 3 inspected; 2 not inspected (clientTLSPolicy 1, quic 1); …".
        var line: String {
            var parts = ["\(inspected) inspected"]
            for (words, counts) in [("not inspected", notInspected), ("not inspectable", notInspectable),
                                    ("broken by inspection", inspectionFailed)] where !counts.isEmpty {
                parts.append("\(counts.values.reduce(0, +)) \(words) (" + Self.listed(counts) + ")")
            }
            return "inspection: " + parts.joined(separator: "; ")
        }

        /// `"inspection": {"inspected": N, "notInspected": [{"reason", "count"}], "notInspectable": […],
        /// "inspectionFailed": […]}`, reasons in `InspectionReasonKind`'s order.
        func write(to out: inout JSONWriter) {
            out.beginObject("inspection")
            out.number("inspected", inspected)
            for (key, counts) in [("notInspected", notInspected), ("notInspectable", notInspectable),
                                  ("inspectionFailed", inspectionFailed)] as [(StaticString, [InspectionReasonKind: Int])] {
                out.beginArray(key)
                for kind in InspectionReasonKind.allCases {
                    guard let count = counts[kind] else { continue }
                    out.beginObject()
                    out.string("reason", InspectionReasonWording.identifier(kind))
                    out.number("count", count)
                    out.endObject()
                }
                out.endArray()
            }
            out.endObject()
        }

        private static func listed(_ counts: [InspectionReasonKind: Int]) -> String {
            InspectionReasonKind.allCases.compactMap { kind in
                counts[kind].map { "\(InspectionReasonWording.identifier(kind)) \($0)" }
            }.joined(separator: ", ")
        }
    }

    /// The tally when the run inspected; nil otherwise.
    var inspectionTally: InspectionTally? {
        guard inspectionTrust != nil else { return nil }
        switch connections {
        case let .known(connections), let .incomplete(connections, _): return InspectionTally(connections)
        case .unreadable: return nil
        }
    }
}
