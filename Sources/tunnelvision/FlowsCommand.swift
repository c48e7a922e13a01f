import Foundation
import App
import Shared

/// `tunnelvision flows`: the timeline — the history's connections newest first, a page at a time.
enum FlowsCommand {
    struct Request: Equatable {
        var question: TimelineQuestion
        var json = false
    }

    static let help = """
    tunnelvision flows [--data-dir D] [--json] [--search QUERY] [--protocol tcp|udp|icmp|icmpv6|N,…]
                       [--status plaintext|encrypted|inspected|notInspectable|inspectionFailed,…]
                       [--reason KIND,…] [--program NAME,…] [--since T] [--until T] [--limit N]
                       [--sort KEY[:asc|desc]] [--after CURSOR] [--zone Z]
    tunnelvision flows --group host|program [--data-dir D] [--json] [--limit N] [the same filters]

    Lists the connections the history holds, most recently active first (or in --sort's order), one
    a line: its id (for 'tunnelvision flow ID'), when it was last active (UTC), the program that
    opened it — its command and pid, or why none is named: (closed) its socket was gone before it
    was asked about, (passing) it only passed through the machine, (unknown) the kernel could not be
    asked; - when it was not asked (before programs were kept) —, the host — its name and where the
    name came from (sni: the connection announced it; quic: a QUIC Initial did; proxy: a SOCKS or
    HTTP CONNECT request opening it named its target; dnsQuery: a DNS lookup, named by what it
    asked; dns: the DNS answer for its address), else its address —, the remote port, the protocol, bytes received and sent,
    packets, how long it lasted and whether it was encrypted — with why, when it was not inspected
    or inspection broke it (inspection off says nothing: it is every connection of a plain run).

    --search QUERY   connections every term of QUERY holds for (terms are separated by spaces):
                       WORD              its name, another name, its proxy target or its remote
                                         address contains WORD (any case); "TWO WORDS" in double
                                         quotes are one term
                       host:TEXT         the same for TEXT, whatever it looks like
                       ADDRESS           either end's address is this IPv4 or IPv6 address
                       ADDRESS/LENGTH    either end's address is in this block (198.18.0.0/15,
                                         fd00::/8)
                       port:N  port:N-M  either end's port is N, or from N to M (TCP and UDP)
                       proto:P           a protocol as --protocol takes it
                       status:S          an encryption status as --status takes it
                       program:NAME      a program as --program takes it
                       http:TEXT         one of its inspected requests' heads (the request line
                                         or a header line, "user-agent: curl") contains TEXT, any
                                         case; kept while its decrypted content is (values of
                                         Authorization and Cookie are not searchable)
                       ja4:FINGERPRINT   its ClientHello's JA4 is FINGERPRINT, or begins with it
                                         a whole part at a time (ja4:t13d1516h2,
                                         ja4:t13d1516h2_8daaf6152771), any case
                       ja3:HASH          its ClientHello's JA3 hash (MD5, 32 hex digits) is HASH
                       ja3s:HASH         its cleartext ServerHello's JA3S hash is HASH (JA4S and
                                         JA4X are not computed: their licence allows only
                                         non-commercial use, and ja4s: is refused saying so)
                     A comma in a term's value means any of them (port:80,443); "," and spaces
                     inside double quotes are the value's (program:"a,b"). '-' before a term keeps
                     the connections it does not hold for (-proto:udp, -198.18.0.0/15). Keys are in
                     any case. A term that cannot be read — an unknown key (foo:bar), a bad port,
                     protocol, status, prefix length or JA3 hash, an empty value, an unclosed quote — is
                     refused with what it should be (exit status 2), never searched as text.
    --protocol P     only these protocols (comma-separated or repeated; icmp means ICMP and ICMPv6)
    --status S       only these encryption statuses (comma-separated or repeated); inspectionFailed
                     is a connection TLS inspection broke
    --reason KIND    only connections not inspected, or broken by inspection, for these reasons:
                     \(HelpText.wrapped(InspectionReasonKind.allCases.map(\.rawValue).joined(separator: ", "), width: 75)
                        .joined(separator: "\n                 "))
    --program NAME   only connections these programs opened (comma-separated or repeated): NAME is
                     the command flows shows or the executable's file name, A-Z in any case
    --since T        only connections still active at or after T
    --until T        only connections that had begun by T
    T is \(HistoryTimeInput.accepted).
    --limit N        connections a page (default 100, at most 1000); with --group, groups shown
    --sort KEY       the whole history's order, of which the page is the first part (default time):
                       time (last active), host (names A to Z, then unnamed connections by
                       address), program (its command; none named last), port (the remote one),
                       protocol (by number: ICMP, TCP, UDP, ICMPv6), status (plaintext, encrypted,
                       inspected, notInspectable, inspectionFailed), received, sent, packets,
                       duration. A key alone runs its natural way — time and the figures the most
                       first, the rest from the lowest —; KEY:asc or KEY:desc picks. Ties are in
                       id order the same way. An unknown key is refused with the keys (exit 2).
    --after CURSOR   the page after the one that ended at CURSOR (the footer prints the command);
                     a cursor holds its order, and is refused with another --sort
    --group G        instead of connections, one line per host (its name, else its remote address)
                     or per program (its command), with the totals of every connection the filters
                     keep in the whole history — connections, received, sent, packets, first and
                     last active — ranked by bytes received plus sent, the most first. The store
                     adds them up; a --search is matched row by row (every row read: slower over
                     a large history, still exact). Takes neither --sort nor --after. --json:
                     {"group", "ranking", "groups": [{"label", "value" (the name, address or
                     command; null for no program named), "term" (the --search term that lists
                     the group's connections, or null), "connections", "bytesIn", "bytesOut",
                     "packets", "firstSeen", "lastSeen"}], "totalGroups", "rowByRow", "filter"}
    --zone Z         the time zone whose days decide --json's "clock" (default: this machine's)
    --json           one JSON object: {"clock" (time when every row's last activity is today in
                     --zone's days, else date: whether a screen writes the rows' times with their
                     date), "flows": [{"id", "after" (the --after that goes on just past this
                     flow), "protocol", "local", "remote" ({"address", "port"}, null when the
                     ends could not be told apart), "peers" (both ends as
                     stored), "communityID" (Zeek's Community ID v1 of the connection, "1:…" as
                     Zeek, Suricata and Wireshark write it, seed 0: the same connection in their
                     records has the same; null for ICMP and SCTP, whose type and code or ports
                     the history does not keep), "fingerprints" ({"ja4", "ja3", "ja3Full", "ja3s",
                     "ja3sFull"}: the ClientHello's JA4 and JA3 — its MD5 and the string hashed, as
                     Wireshark prints them — and a cleartext ServerHello's JA3S, each null when
                     its hello was not read; null when neither was), "name", "nameSource" (sni: the TLS hello's
                     server name; quic: a QUIC Initial's; proxy: a proxy request's target; dns: a
                     DNS answer for its address; dnsQuery: on a DNS connection, the name it asked
                     about; or null), "nameSourceText" (the same as the text and the web app say
                     it, or null), "otherNames", "proxy" ({"protocol" (socks4|socks4a|socks5|
                     httpConnect), "host" (as the request sent it), "port"} of a proxy request
                     opening the connection, or null), "dns" (on a DNS connection over UDP port
                     53, its first question and the reply to it: {"question", "type" (A, AAAA,
                     …), "reply": {"code", "codeName" (NOERROR, NXDOMAIN, …), "outcome"
                     (answered|noRecordsOfThatType|noSuchName|failed), "answerCount", "answers"
                     (addresses and CNAME targets, in answer order)} or null while none was
                     seen}, else null), "encryptedDNS" (dot: TCP port 853; doq: UDP port 853;
                     doh: HTTPS to a well-known public resolver's name; else null), "firstSeen",
                     "lastSeen" (UTC), "bytesIn", "bytesOut", "packets", "durationSeconds",
                     "tlsStatus", "inspectionReason" (a KIND above, or null), "inspectionDetail"
                     (the reason in the words of whoever gave it, or null), "leafTLS" (on an
                     inspected connection, what the app and TunnelVision's certificate negotiated:
                     {"version", "cipherSuite", "cipherSuiteName", "helloRetryRequest", "text"}, or
                     null), "serverEnding" (how the real server ended an inspected connection:
                     closeNotify|withoutCloseNotify|reset|fatalAlert, or null), "program" (the
                     program behind the connection, asked when it opened: {"state"
                     (program|socketGone|notLocal|unavailable), "pid", "command", "executable",
                     "uid", "user", "detail" (why it is unavailable), "label" (the PROGRAM cell),
                     "text"}, or null when it was not asked), "inspectionSentence" (the status and
                     reason as a sentence, or null), "statusNote" (the same when a row says it, or
                     null), "conversation" (the two ends as a screen shows them: {"thisMachine"
                     (false for a conversation analyze read between two other machines), "label"
                     (who it is with, when unnamed), "note", "unnamed" (said where a name would
                     be), "ends": [{"label", "text"}]})}], "bursts", "scanned", "hasMore", "next" (a cursor or
                     null), "liveRowsKept" (rows a screen left open adds before its oldest go), "keptLooking", "historyEmpty", "filter" (as applied: "search",
                     "protocols", "statuses", "reasons", "programs", "since", "until"), "sort" ({"key",
                     "descending", "word" (as --sort takes it), "sentence"}), "choices"
                     (what can be asked for, in a screen's words: {"statuses": [{"id", "label",
                     "written"}], "reasons": [{"id", "label"}], "sorts": [{"word",
                     "sentence"}] (every order, each key its natural way first)})}
                     "bursts" lists the page's bursts, each flow of which is still in "flows": [{"ids"
                     (in the flows' order), "count", "host", "nameSource", "nameSourceText", "port", "protocol",
                     "tlsStatus", "firstSeen", "lastSeen", "startedWithinSeconds", "bytesIn",
                     "bytesOut", "packets", "program" (the PROGRAM cell), "summary" (the sentence
                     the text prints)}]
    A burst — \(TimelineBursts.minimumCount) or more consecutive connections to one host (name, else address) and port,
    of one protocol and status, each started within \(Int(TimelineBursts.maximumGap)) s of the one before — is one row: its
    id column holds the ids it spans, and a line under the table opens one ('tunnelvision flow ID').
    Each page is grouped on its own: a burst the page's end cuts shows what this page holds of it.
    Bursts are made in time order only (--sort time): in another order each connection is a row.

    A page reads at most 8 batches of connections: a filter that matches few may find fewer than a
    page, and then the footer says it kept looking, how many it scanned and how to look further.
    Exit status 1 when the history cannot be read, 2 on a usage error.

    \(JSONSizeHelp.paragraph)
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        do {
            return Request(question: try TimelineQuestion.parse(arguments, now: Date()), json: json)
        } catch {
            throw Invocation.UsageError(message: error.message)
        }
    }

    static func run(_ request: Request) async -> Int32 {
        do {
            print(try await request.question.respond(json: request.json, now: Date()))
            return 0
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }
}
