import Shared
import Testing
@testable import App

/// `--sort KEY[:asc|desc]` and the cursor that carries an order's value: read as written, written
/// as read, refused with every key named.
@Suite struct HistorySortTests {
    @Test("a key alone runs its natural way: time and figures the most first, names, ports, protocols and statuses from the lowest")
    func naturalDirections() {
        #expect(HistorySort.parse("time") == .newestFirst)
        #expect(HistorySort.parse("received") == FlowOrder(.received, descending: true))
        #expect(HistorySort.parse("duration") == FlowOrder(.duration, descending: true))
        #expect(HistorySort.parse("host") == FlowOrder(.host, descending: false))
        #expect(HistorySort.parse("PORT") == FlowOrder(.port, descending: false))
        #expect(HistorySort.parse("host:desc") == FlowOrder(.host, descending: true))
        #expect(HistorySort.parse("Packets:ASC") == FlowOrder(.packets, descending: false))
        for bad in ["", "bytes", "host:up", "host:", ":asc", "time:asc:x"] { #expect(HistorySort.parse(bad) == nil, "\(bad)") }
    }

    @Test("every key and both directions are written as parse reads them back")
    func wordsRoundTrip() {
        for key in FlowOrder.Key.allCases {
            for descending in [false, true] {
                let order = FlowOrder(key, descending: descending)
                #expect(HistorySort.parse(HistorySort.word(order)) == order)
            }
        }
    }

    @Test("a cursor of any order and value comes back with its order: the default one as it always was written, others with their order and typed value")
    func cursorsRoundTrip() throws {
        let cases: [(FlowOrder, FlowCursor, String)] = [
            (.newestFirst, FlowCursor(lastSeenNanoseconds: 1_796_004_000_123_456_789, id: 42), "1796004000123456789-42"),
            (FlowOrder(.time, descending: false), FlowCursor(value: .integer(5), id: 7), "time:asc:i5-7"),
            (FlowOrder(.received, descending: true), FlowCursor(value: .integer(52_000), id: 9), "received:desc:i52000-9"),
            (FlowOrder(.host, descending: false), FlowCursor(value: .text("ex-ample.com"), id: 3), "host:asc:t65782d616d706c652e636f6d-3"),
            (FlowOrder(.host, descending: true), FlowCursor(value: .blob([198, 18, 0, 1]), id: 11), "host:desc:xc6120001-11"),
            (FlowOrder(.program, descending: false), FlowCursor(value: .blob([]), id: 12), "program:asc:x-12"),
            (FlowOrder(.duration, descending: true), FlowCursor(value: .integer(-1), id: 1), "duration:desc:i-1-1"),
            (FlowOrder(.host, descending: false), FlowCursor(value: .text("ünï"), id: 2), "host:asc:tc3bc6ec3af-2"),
        ]
        for (order, cursor, text) in cases {
            #expect(HistoryCursorText.text(cursor, order: order) == text)
            let read = try #require(HistoryCursorText.parse(text), "\(text)")
            #expect(read.order == order && read.cursor == cursor, "\(text)")
        }
        for bad in ["host:asc:q12-3", "host:asc:t1-3", "host:asc:tzz-3", "bytes:asc:i1-3", "host:up:i1-3", "received:desc:i1-0", "host:asc:tff-3"] {
            #expect(HistoryCursorText.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("flows refuses an unknown --sort with every key, a cursor of another order, and --group beside --sort or --after")
    func refusals() {
        func refusal(_ arguments: [String]) -> String? {
            do { _ = try TimelineQuestion.parse(arguments, now: .now); return nil } catch { return error.message }
        }
        #expect(refusal(["--sort", "bytes"]) == HistorySort.refusal("bytes", command: "flows"))
        #expect(refusal(["--sort", "bytes"])?.contains("time, host, program, port, protocol, status, received, sent, packets, duration") == true)
        #expect(refusal(["--sort", "host", "--after", "received:desc:i1-4"])?.contains("--sort received:desc") == true)
        #expect(refusal(["--after", "received:desc:i1-4"])?.contains("--sort received:desc") == true)
        #expect(refusal(["--sort", "received", "--after", "received:desc:i1-4"]) == nil)
        #expect(refusal(["--group", "port"]) == "flows: unknown group 'port': give host or program")
        #expect(refusal(["--group", "host", "--sort", "sent"]) != nil)
    }
}
