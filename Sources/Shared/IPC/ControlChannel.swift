import Foundation

/// The control channel's codec: small, infrequent commands from the `tunnelvision` command to the
/// running tunnel, and their answers, over the Unix stream socket in the data directory. Never
/// per-packet data: that is the live feed's ring.
///
/// Wire format — one JSON object per message, keys sorted, UTF-8, never a newline byte inside (so
/// the socket may frame one message per line). The discriminator names the case; its value, if
/// any, sits beside it under a name that says what it is:
///
///     {"command":"setTLSInspectionEnabled","enabled":true}
///     {"command":"setCaptureEnabled","enabled":false}
///     {"command":"setCaptureDetail","detail":"metadataOnly"}        (CaptureDetail's raw value)
///     {"command":"setPlaintextPersistenceEnabled","enabled":true}
///     {"command":"rotateCapture"}
///     {"command":"stats"}
///
///     {"response":"ok"}
///     {"response":"stats","stats":{"pipeline":{…},"relay":{…},"resolvers":{…}}}
///     {"message":"No space left on device","response":"failed"}
///     {"response":"notRunning"}
///
/// Inside `stats` every field is named as the Swift property; an optional that has no value is
/// left out (or may be sent as null). So is a group of counters this build does not fill yet
/// (`relay.inspection`, `pipeline.plaintext`, `pipeline.retention`): absent, never zeros.
///
/// Decoding is strict on purpose, unlike the settings file: both ends are the same binary, so a
/// message that does not decode exactly — an unknown case, a missing or unknown field, a wrong
/// type, another program's JSON — comes from a different version or a different sender, and
/// guessing would lie. Zeros invented for a missing counter would say nothing happened all
/// session, the opposite of what the counters exist to answer.
package enum ControlChannel {
    package static func encode(_ command: ControlCommand) -> Data { encodeMessage(command) }

    package static func encode(_ response: ControlResponse) -> Data { encodeMessage(response) }

    /// Reads what the tunnel was asked to do. Throws `.malformed` for anything else.
    package static func decodeCommand(_ data: Data) throws(ControlMessageError) -> ControlCommand {
        try decodeMessage(ControlCommand.self, from: data)
    }

    /// Reads the tunnel's answer. Throws `.malformed` for anything else, a command included.
    package static func decodeResponse(_ data: Data) throws(ControlMessageError) -> ControlResponse {
        try decodeMessage(ControlResponse.self, from: data)
    }

    private static func encodeMessage(_ message: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(message)
        } catch {
            // JSONEncoder fails only on non-finite floating-point values, and messages hold none.
            preconditionFailure("a control message could not be encoded: \(error)")
        }
    }

    private static func decodeMessage<Message: Codable>(_ type: Message.Type,
                                                        from data: Data) throws(ControlMessageError) -> Message {
        guard !data.isEmpty else { throw .malformed("empty message") }
        let received: Any
        let message: Message
        do {
            received = try JSONText.parse(data)
            message = try JSONDecoder().decode(Message.self, from: data)
        } catch {
            throw .malformed(JSONText.reason(error))
        }
        // Codable ignores fields it does not know; here an unknown field means another sender.
        if let unknown = fieldPaths(of: received).subtracting(fieldPaths(of: encodedJSON(message))).min() {
            throw .malformed("unknown field \(unknown)")
        }
        return message
    }

    /// Our own encoding of `message`, parsed. It always parses; were it not to, every field would
    /// count as unknown and the message be refused, which fails safe.
    private static func encodedJSON(_ message: some Encodable) -> Any {
        (try? JSONSerialization.jsonObject(with: encodeMessage(message))) ?? [String: Any]()
    }

    /// The dotted path of every field of every object in `json`. Null fields are left out: an
    /// optional without a value may be sent either way.
    private static func fieldPaths(of json: Any, under prefix: String = "") -> Set<String> {
        if let object = json as? [String: Any] {
            return object.reduce(into: []) { paths, field in
                guard !(field.value is NSNull) else { return }
                let path = prefix.isEmpty ? field.key : "\(prefix).\(field.key)"
                paths.insert(path)
                paths.formUnion(fieldPaths(of: field.value, under: path))
            }
        }
        if let array = json as? [Any] {
            return array.enumerated().reduce(into: []) { paths, element in
                paths.formUnion(fieldPaths(of: element.element, under: "\(prefix)[\(element.offset)]"))
            }
        }
        return []
    }
}

/// What the `tunnelvision` command asks a running tunnel to do (seeds/003 § handleAppMessage).
package enum ControlCommand: Sendable, Equatable {
    /// Start or stop terminating TLS for inspection, for flows that open from now on.
    case setTLSInspectionEnabled(Bool)
    /// Turn capture on or off; turning it on re-arms it after a failure turned it off.
    case setCaptureEnabled(Bool)
    /// Change how much of each packet is kept. Rotates the capture: the snaplen belongs to the file.
    case setCaptureDetail(CaptureDetail)
    /// Start or stop keeping decrypted content on disk.
    case setPlaintextPersistenceEnabled(Bool)
    /// Close the current capture file and open the next, so it can be exported without stopping.
    case rotateCapture
    /// Ask for `TunnelStats`.
    case stats
}

/// The tunnel's answer to a `ControlCommand`.
package enum ControlResponse: Sendable, Equatable {
    /// Done.
    case ok
    /// The answer to `.stats`.
    case stats(TunnelStats)
    /// The command could not be carried out (a full disk when rotating); the message is for the person.
    case failed(String)
    /// No session is running: the ordinary race with a stop, not an error.
    case notRunning
}

/// A control message that is not one this program sends. Drop it and report it; never act on it.
package enum ControlMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message did not decode; the reason says where, for diagnostics.
    case malformed(String)

    package var description: String {
        switch self {
        case let .malformed(reason): "malformed control message: \(reason)"
        }
    }
}

extension ControlCommand: Codable {
    private enum Field: String, CodingKey { case command, enabled, detail }
    private enum Name: String {
        case setTLSInspectionEnabled, setCaptureEnabled, setCaptureDetail, setPlaintextPersistenceEnabled
        case rotateCapture, stats
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Field.self)
        let name = try container.discriminator(Name.self, forKey: .command)
        switch name {
        case .setTLSInspectionEnabled: self = .setTLSInspectionEnabled(try container.decode(Bool.self, forKey: .enabled))
        case .setCaptureEnabled: self = .setCaptureEnabled(try container.decode(Bool.self, forKey: .enabled))
        case .setCaptureDetail: self = .setCaptureDetail(try container.decode(CaptureDetail.self, forKey: .detail))
        case .setPlaintextPersistenceEnabled:
            self = .setPlaintextPersistenceEnabled(try container.decode(Bool.self, forKey: .enabled))
        case .rotateCapture: self = .rotateCapture
        case .stats: self = .stats
        }
    }

    package func encode(to encoder: any Encoder) throws {
        let (name, enabled, detail): (Name, Bool?, CaptureDetail?) = switch self {
        case let .setTLSInspectionEnabled(enabled): (.setTLSInspectionEnabled, enabled, nil)
        case let .setCaptureEnabled(enabled): (.setCaptureEnabled, enabled, nil)
        case let .setCaptureDetail(detail): (.setCaptureDetail, nil, detail)
        case let .setPlaintextPersistenceEnabled(enabled): (.setPlaintextPersistenceEnabled, enabled, nil)
        case .rotateCapture: (.rotateCapture, nil, nil)
        case .stats: (.stats, nil, nil)
        }
        var container = encoder.container(keyedBy: Field.self)
        try container.encode(name.rawValue, forKey: .command)
        try container.encodeIfPresent(enabled, forKey: .enabled)
        try container.encodeIfPresent(detail, forKey: .detail)
    }
}

extension ControlResponse: Codable {
    private enum Field: String, CodingKey { case response, stats, message }
    private enum Name: String { case ok, stats, failed, notRunning }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Field.self)
        let name = try container.discriminator(Name.self, forKey: .response)
        switch name {
        case .ok: self = .ok
        case .stats: self = .stats(try container.decode(TunnelStats.self, forKey: .stats))
        case .failed: self = .failed(try container.decode(String.self, forKey: .message))
        case .notRunning: self = .notRunning
        }
    }

    package func encode(to encoder: any Encoder) throws {
        let (name, stats, message): (Name, TunnelStats?, String?) = switch self {
        case .ok: (.ok, nil, nil)
        case let .stats(stats): (.stats, stats, nil)
        case let .failed(message): (.failed, nil, message)
        case .notRunning: (.notRunning, nil, nil)
        }
        var container = encoder.container(keyedBy: Field.self)
        try container.encode(name.rawValue, forKey: .response)
        try container.encodeIfPresent(stats, forKey: .stats)
        try container.encodeIfPresent(message, forKey: .message)
    }
}

extension KeyedDecodingContainer {
    /// The case named at `key` (`command` or `response`); an unknown name is corrupt data that says it.
    fileprivate func discriminator<Name: RawRepresentable<String>>(_ type: Name.Type, forKey key: Key) throws -> Name {
        let text = try decode(String.self, forKey: key)
        guard let name = Name(rawValue: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self,
                                                   debugDescription: "unknown \(key.stringValue) \"\(text)\"")
        }
        return name
    }
}

/// Saying in one line why bytes did not decode (the reason `ControlMessageError.malformed` and
/// `SettingsError.corruptData` carry). JSON syntax is checked apart because JSONDecoder only says
/// "not valid JSON"; JSONSerialization says where.
enum JSONText {
    /// The bytes are not JSON at all.
    struct Invalid: Error {
        let reason: String
    }

    /// The JSON value in `data`, any kind of value at the top.
    static func parse(_ data: Data) throws(Invalid) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw Invalid(reason: "not JSON (\(detail ?? "\(error)"))")
        }
    }

    /// The reason for an error thrown by `parse` or by JSONDecoder, with the field's dotted path.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as Invalid: error.reason
        // The JSON parsed, so what the decoder calls corrupt at the top is a number its field cannot hold.
        case let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty: "a number does not fit its field"
        case let DecodingError.dataCorrupted(context): "\(path(context.codingPath)): \(context.debugDescription)"
        case let DecodingError.keyNotFound(key, context): "missing field \(path(context.codingPath + [key]))"
        case let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty: "not a JSON object"
        case let DecodingError.typeMismatch(type, context): "\(path(context.codingPath)) is not \(type)"
        case let DecodingError.valueNotFound(_, context): "\(path(context.codingPath)) is null"
        default: "\(error)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
