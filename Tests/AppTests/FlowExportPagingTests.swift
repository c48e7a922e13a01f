import Shared
import Testing
@testable import App

/// The paging decisions of an export, without files: pages up to the cap, never more rows than it
/// leaves, then one row past the last cursor.
@Suite("Which rows an export asks for next")
struct FlowExportPagingTests {
    @Test("pages of the page size, the last one cut to the cap, then a one-row probe after the last cursor")
    func stepsToTheCap() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 9)
        var paging = FlowExportPaging(limit: 7, pageSize: 3)
        #expect(paging.next == .page(limit: 3, after: nil))
        #expect(paging.received(Array(flows[0..<3])).count == 3)
        #expect(paging.next == .page(limit: 3, after: FlowCursor(after: flows[2].stored)))
        _ = paging.received(Array(flows[3..<6]))
        #expect(paging.next == .page(limit: 1, after: FlowCursor(after: flows[5].stored)))
        _ = paging.received([flows[6]])
        #expect(paging.next == .probe(after: FlowCursor(after: flows[6].stored)))
        #expect(paging.received([flows[7]]).isEmpty)
        #expect(paging.next == .finished(truncated: true))
        #expect(paging.exported == 7)
        await fixture.close()
    }

    @Test("a short page ends the history untruncated; an empty probe too; a zero cap only probes")
    func endings() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 2)
        var short = FlowExportPaging(limit: 10, pageSize: 5)
        _ = short.received(flows)
        #expect(short.next == .finished(truncated: false))
        var exact = FlowExportPaging(limit: 2, pageSize: 5)
        _ = exact.received(flows)
        _ = exact.received([])
        #expect(exact.next == .finished(truncated: false))
        var none = FlowExportPaging(limit: 0, pageSize: 5)
        #expect(none.next == .probe(after: nil))
        _ = none.received(flows)
        #expect(none.next == .finished(truncated: true) && none.exported == 0)
        await fixture.close()
    }
}
