import Foundation
import Shared
import Testing
@testable import App

/// The web API's route table, directly: path + method + query → the question the command asks,
/// read by the command's own parsers; everything else refused with its status and sentence.
struct WebAPIRouteTests {
    static let directory = "/var/lib/tv-test"
    static let now = Date(timeIntervalSince1970: 1_796_004_000)

    static func route(_ method: String, _ path: String, _ query: [(String, String)] = [],
                      body: String = "") -> Result<WebAPIRoute, WebAPIRoute.Refusal> {
        let request = HTTPRequest(method: method, target: path, path: path, query: query.map { HTTPQueryItem($0.0, $0.1) },
                                  body: Array(body.utf8))
        return WebAPIRoute.resolve(request, dataDirectory: directory, now: now)
    }

    static func refusal(_ method: String, _ path: String, _ query: [(String, String)] = [], body: String = "") -> WebAPIRoute.Refusal? {
        if case .failure(let refusal) = route(method, path, query, body: body) { return refusal }
        return nil
    }

    @Test("the timeline's query is the command's options: the same filter, limit and cursor as 'flows' reads them")
    func flowsQuery() throws {
        let query = [("search", "Example"), ("protocol", "tcp,udp"), ("status", "encrypted"), ("since", "2h"),
                     ("limit", "20"), ("after", "1796004000500000000-42")]
        let expected = try TimelineQuestion.parse(["--data-dir", Self.directory, "--search", "Example", "--protocol", "tcp,udp",
                                                   "--status", "encrypted", "--since", "2h", "--limit", "20",
                                                   "--after", "1796004000500000000-42"], now: Self.now)
        #expect(Self.route("GET", "/api/flows", query) == .success(.flows(expected)))
        #expect(expected.filter.protocols == [.tcp, .udp] && expected.limit == 20 && expected.after?.id == 42)
        #expect(expected.filter.dateRange?.lowerBound == Self.now.addingTimeInterval(-7_200))
        #expect(expected.dataDirectory == Self.directory)
    }

    @Test("sort= and group= are flows' --sort and --group, refused with the command's sentence")
    func flowsSortAndGroup() throws {
        let sorted = try TimelineQuestion.parse(["--data-dir", Self.directory, "--sort", "received",
                                                 "--after", "received:desc:i52000-42"], now: Self.now)
        #expect(Self.route("GET", "/api/flows", [("sort", "received"), ("after", "received:desc:i52000-42")]) == .success(.flows(sorted)))
        #expect(sorted.order == FlowOrder(.received, descending: true) && sorted.after == FlowCursor(value: .integer(52_000), id: 42))
        let grouped = try TimelineQuestion.parse(["--data-dir", Self.directory, "--group", "host", "--status", "plaintext"], now: Self.now)
        #expect(Self.route("GET", "/api/flows", [("group", "host"), ("status", "plaintext")]) == .success(.flows(grouped)))
        #expect(grouped.grouping == .host)
        #expect(Self.refusal("GET", "/api/flows", [("sort", "bytes")])?.message
                == "flows: unknown sort 'bytes': give one of time, host, program, port, protocol, status, received, sent, packets, "
                + "duration — alone, or followed by :asc or :desc")
    }

    @Test("empty parameters are parameters not given, as a form's empty fields send them")
    func emptyParameters() throws {
        let query = [("search", ""), ("protocol", ""), ("status", ""), ("since", ""), ("until", ""), ("limit", ""), ("after", "")]
        #expect(Self.route("GET", "/api/flows", query) == .success(.flows(TimelineQuestion(dataDirectory: Self.directory))))
    }

    @Test("a bad parameter is a 400 with the command's own usage sentence")
    func badParameters() {
        #expect(Self.refusal("GET", "/api/flows", [("protocol", "tcp,gre")])
                == .init(.badRequest, "flows: unknown protocol 'gre': give tcp, udp, icmp, icmpv6 or a number 0-255"))
        #expect(Self.refusal("GET", "/api/flows", [("limit", "0")])
                == .init(.badRequest, "flows: --limit needs a number from 1 to 1000"))
        #expect(Self.refusal("GET", "/api/flows", [("since", "soon")])?.message.hasPrefix("flows: --since 'soon' is not a time: give ") == true)
        #expect(Self.refusal("GET", "/api/activity", [("from", "2h")])
                == .init(.badRequest, "activity: give --from and --to together (or neither, for the whole history)"))
        #expect(Self.refusal("GET", "/api/activity", [("bars", "1")])
                == .init(.badRequest, "activity: --bars needs a number from 2 to 500"))
        #expect(Self.refusal("GET", "/api/flows/x1")
                == .init(.badRequest, "flow: one connection id, a number (not x1)"))
        #expect(Self.refusal("GET", "/api/flows/7/packets/0")
                == .init(.badRequest, "flow: --packet needs a whole number from 1, not 0"))
        #expect(Self.refusal("POST", "/api/captures/seven/delete")
                == .init(.badRequest, "captures rm: seven is not a capture's sequence (a number 'tunnelvision captures' lists)"))
        #expect(Self.refusal("GET", "/api/captures/seven")?.status == .badRequest)
    }

    @Test("a search that cannot be read is a 400 that also names the field and its problem, for the page to say beside it")
    func refusedSearchNamesItsField() {
        let problem = "'x' in 'port:x' is not a port: give a number from 0 to 65535 or a range such as 8000-8080"
        #expect(Self.refusal("GET", "/api/flows", [("search", "video port:x"), ("protocol", "tcp")])
                == .init(.badRequest, "flows: --search: " + problem, parameter: .init(name: "search", problem: problem)))
        #expect(Self.refusal("GET", "/api/flows", [("protocol", "gre")])?.parameter == nil)
    }

    @Test("a parameter a route does not take is refused, never passed on as an option (no data-dir from a query)")
    func unknownParameters() {
        #expect(Self.refusal("GET", "/api/flows", [("data-dir", "/etc")])
                == .init(.badRequest, "flows: unknown parameter 'data-dir': it takes search, protocol, status, reason, program, since, until, sort, group, limit, after, zone"))
        #expect(Self.refusal("GET", "/api/activity", [("json", "1")])?.status == .badRequest)
        #expect(Self.refusal("GET", "/api/captures", [("data-dir", "/etc")])
                == .init(.badRequest, "captures: unknown parameter 'data-dir': it takes none"))
        #expect(Self.refusal("GET", "/api/flows/3", [("pcap", "/tmp/x")])?.status == .badRequest)
    }

    @Test("one connection: the inspector, a packet, its capture in either format")
    func flowRoutes() throws {
        #expect(Self.route("GET", "/api/flows/12") == .success(.inspector(FlowQuestion(flowID: 12, dataDirectory: Self.directory), packets: nil)))
        let limited = FlowQuestion(flowID: 12, dataDirectory: Self.directory, action: .inspect(packets: 30))
        #expect(Self.route("GET", "/api/flows/12", [("packets", "30")]) == .success(.inspector(limited, packets: 30)))
        let packet = FlowQuestion(flowID: 12, dataDirectory: Self.directory, action: .packet(3))
        #expect(Self.route("GET", "/api/flows/12/packets/3") == .success(.packet(packet, number: 3)))
        let flow = FlowQuestion(flowID: 12, dataDirectory: Self.directory)
        #expect(Self.route("GET", "/api/flows/12/capture.pcap") == .success(.flowCapture(flow, .pcap)))
        #expect(Self.route("GET", "/api/flows/12/capture.pcapng") == .success(.flowCapture(flow, .pcapng)))
        #expect(Self.refusal("GET", "/api/flows/12/capture.zip")?.status == .notFound)
    }

    @Test("a deletion agrees to delete audit evidence by including-evidence=yes, its only parameter, as the command's switch")
    func evidenceAgreement() {
        let d = Self.directory
        #expect(Self.route("POST", "/api/captures/4/delete", [("including-evidence", "yes")])
                == .success(.captures(CapturesQuestion(action: .remove([4]), dataDirectory: d, includingEvidence: true))))
        #expect(Self.route("POST", "/api/storage/clear", [("including-evidence", "yes")])
                == .success(.storage(StorageQuestion(action: .clear(confirmed: true), dataDirectory: d, includingEvidence: true))))
        // An empty value is a parameter not given.
        #expect(Self.route("POST", "/api/storage/clear", [("including-evidence", "")])
                == .success(.storage(StorageQuestion(action: .clear(confirmed: true), dataDirectory: d))))
        #expect(Self.refusal("POST", "/api/captures/4/delete", [("including-evidence", "no")])
                == .init(.badRequest, "captures rm: including-evidence takes yes, not 'no'"))
        #expect(Self.refusal("POST", "/api/storage/clear", [("yes", "yes")])
                == .init(.badRequest, "storage clear: unknown parameter 'yes': it takes including-evidence"))
        #expect(Self.refusal("POST", "/api/storage/apply", [("including-evidence", "yes")])?.status == .badRequest)
    }

    @Test("captures, storage, settings, diagnostics, live and export map to their commands' questions")
    func otherRoutes() {
        let d = Self.directory
        #expect(Self.route("GET", "/api/captures") == .success(.captures(CapturesQuestion(action: .list, dataDirectory: d))))
        #expect(Self.route("POST", "/api/captures/rotate") == .success(.captures(CapturesQuestion(action: .rotate, dataDirectory: d))))
        #expect(Self.route("POST", "/api/captures/4/delete") == .success(.captures(CapturesQuestion(action: .remove([4]), dataDirectory: d))))
        #expect(Self.route("GET", "/api/captures/4") == .success(.captureFile(CapturesQuestion(action: .list, dataDirectory: d), sequence: 4)))
        #expect(Self.route("GET", "/api/storage") == .success(.storage(StorageQuestion(action: .usage, dataDirectory: d))))
        #expect(Self.route("POST", "/api/storage/apply") == .success(.storage(StorageQuestion(action: .apply, dataDirectory: d))))
        #expect(Self.route("POST", "/api/storage/clear") == .success(.storage(StorageQuestion(action: .clear(confirmed: true), dataDirectory: d))))
        #expect(Self.route("GET", "/api/settings") == .success(.settings(SettingsQuestion(dataDirectory: d))))
        #expect(Self.route("POST", "/api/settings", body: #"{"setting": "capture-detail", "value": "headers"}"#)
                == .success(.changeSetting(SettingsQuestion(dataDirectory: d), .captureDetail(.metadataOnly))))
        #expect(Self.route("GET", "/api/diagnostics") == .success(.diagnostics(DiagnosticsQuestion(dataDirectory: d))))
        #expect(Self.route("GET", "/api/live") == .success(.live))
        #expect(Self.route("GET", "/api/live/now") == .success(.liveNow))
        #expect(Self.route("POST", "/api/export") == .success(.export(ExportQuestion(dataDirectory: d, output: .stream))))
        // The Timeline's download of what it shows: a format and the list's own filters.
        var filtered = ExportQuestion(dataDirectory: d, output: .stream)
        filtered.format = .csv
        filtered.filter.searchText = "port:80"
        filtered.filter.tlsStatuses = [.inspected]
        #expect(Self.route("POST", "/api/export", [("format", "csv"), ("search", "port:80"), ("status", "inspected")])
                == .success(.export(filtered)))
        #expect(Self.refusal("POST", "/api/export", [("format", "xml")])?.message == "export: unknown format 'xml': give json, csv or har")
        #expect(Self.refusal("POST", "/api/export", [("limit", "5")])?.status == .badRequest)
        #expect(Self.route("GET", "/api/export/summary") == .success(.exportSummary(ExportQuestion(dataDirectory: d, output: .stream))))
    }

    @Test("the local CA's routes: show and the downloads by GET, create, remake and remove by POST (the confirmed ones)")
    func certificateAuthorityRoutes() {
        #expect(Self.route("GET", "/api/ca") == .success(.certificateAuthority(.show)))
        #expect(Self.route("POST", "/api/ca/create") == .success(.certificateAuthority(.create)))
        #expect(Self.route("POST", "/api/ca/remake") == .success(.certificateAuthority(.remake)))
        #expect(Self.route("POST", "/api/ca/remove") == .success(.certificateAuthority(.remove)))
        #expect(Self.route("GET", "/api/ca/root.pem") == .success(.certificateAuthority(.certificate(.pem))))
        #expect(Self.route("GET", "/api/ca/root.der") == .success(.certificateAuthority(.certificate(.der))))
        #expect(Self.refusal("GET", "/api/ca/remove") == .init(.methodNotAllowed, "GET /api/ca/remove is not answered: it takes POST"))
        #expect(Self.refusal("POST", "/api/ca")?.status == .methodNotAllowed)
        #expect(Self.refusal("GET", "/api/ca/root-key.pem") == .init(.notFound, "the web API has no /api/ca/root-key.pem"))
        #expect(Self.refusal("GET", "/api/ca", [("x", "1")]) == .init(.badRequest, "ca show: unknown parameter 'x': it takes none"))
    }

    @Test("a setting's body is read as 'settings set' reads its words; a malformed body says what it must be")
    func settingBodies() {
        #expect(Self.refusal("POST", "/api/settings", body: #"{"setting": "colour", "value": "blue"}"#)?.message.hasPrefix("settings set: ") == true)
        #expect(Self.refusal("POST", "/api/settings", body: #"{"setting": "capture-detail", "value": "most"}"#)?.status == .badRequest)
        #expect(Self.refusal("POST", "/api/settings", body: "capture-detail=headers")
                == .init(.badRequest, #"settings set: the body must be {"setting": NAME, "value": VALUE} in JSON (the names and values 'tunnelvision help settings' lists)"#))
    }

    @Test("a state change only by POST, a reading only by GET (405); a path the API lacks is a 404")
    func methodsAndPaths() {
        #expect(Self.refusal("GET", "/api/storage/clear") == .init(.methodNotAllowed, "GET /api/storage/clear is not answered: it takes POST"))
        #expect(Self.refusal("GET", "/api/captures/rotate")?.status == .methodNotAllowed)
        #expect(Self.refusal("GET", "/api/export")?.status == .methodNotAllowed)
        #expect(Self.refusal("POST", "/api/flows")?.status == .methodNotAllowed)
        #expect(Self.refusal("DELETE", "/api/settings") == .init(.methodNotAllowed, "DELETE /api/settings is not answered: it takes GET or POST"))
        #expect(Self.refusal("GET", "/api/nothing") == .init(.notFound, "the web API has no /api/nothing"))
        #expect(Self.refusal("GET", "/api/flows/1/2/3/4")?.status == .notFound)
        #expect(Self.refusal("GET", "/index.html")?.status == .notFound)
    }

    /// Every route a GET is answered on, with a query where the route reads one.
    static let readings: [(path: String, query: [(String, String)])] = [
        ("/api/flows", [("search", "a")]), ("/api/activity", []), ("/api/flows/7", [("packets", "3")]),
        ("/api/flows/7/packets/2", []), ("/api/flows/7/capture.pcap", []), ("/api/flows/7/capture.pcapng", []),
        ("/api/captures", []), ("/api/captures/3", []), ("/api/storage", []), ("/api/settings", []),
        ("/api/diagnostics", []), ("/api/live", []), ("/api/live/now", []), ("/api/ca", []), ("/api/ca/root.pem", []),
        ("/api/ca/root.der", []), ("/api/export/summary", []),
    ]

    @Test("HEAD is routed as GET on every route GET is answered on, event stream included; where GET is refused, so is HEAD")
    func head() {
        for (path, query) in Self.readings {
            let get = Self.route("GET", path, query)
            #expect((try? get.get()) != nil, "GET \(path) is a reading: \(get)")
            #expect(Self.route("HEAD", path, query) == get, "HEAD \(path)")
        }
        for path in ["/api/captures/rotate", "/api/storage/apply", "/api/ca/create", "/api/export", "/api/nothing"] {
            #expect(Self.refusal("HEAD", path)?.status == Self.refusal("GET", path)?.status, "HEAD \(path)")
        }
    }
}
