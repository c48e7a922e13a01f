import Foundation

/// How decrypted bytes read on a screen (screens.md, Decrypted content): UTF-8 text — tolerating
/// a last character split by a cut, control characters other than tab, CR and LF escaped
/// visibly as `\xHH` (C1 as `\u{HHHH}`) — or, when they are not text, the classic hex dump the
/// packet detail draws. Bytes that are mostly control characters are not text even when they are
/// valid UTF-8 (a run of NULs is).
package enum DecryptedBytesRendering: Sendable, Equatable {
    case text(String)
    /// The dump's lines (`PacketBytesPresentation.dump`): offset, hex, ASCII.
    case dump([String])

    /// At most one escaped character in this many still reads as text.
    static let escapedShareLimit = 16

    package init(_ bytes: Data) {
        if let text = Self.text(bytes) { self = .text(text) } else { self = .dump(PacketBytesPresentation.dump(bytes)) }
    }

    /// The text of `bytes`, or nil when they are not UTF-8 text.
    static func text(_ bytes: Data) -> String? {
        let all = [UInt8](bytes)
        for tail in 0...min(3, all.count) {
            let body = all[..<(all.count - tail)]
            guard tail == 0 || isSplitCharacter(all[(all.count - tail)...]) else { continue }
            guard let decoded = String(validating: body, as: UTF8.self) else { continue }
            var out = ""
            var escaped = 0, characters = 0
            for scalar in decoded.unicodeScalars {
                characters += 1
                if let escape = escape(scalar) { out += escape; escaped += 1 } else { out.unicodeScalars.append(scalar) }
            }
            for byte in all[(all.count - tail)...] { out += hexEscape(byte) }
            guard escaped * escapedShareLimit <= characters else { return nil }
            return out
        }
        return nil
    }

    /// A lead byte and fewer continuation bytes than it announces: a character cut at the end.
    static func isSplitCharacter(_ tail: ArraySlice<UInt8>) -> Bool {
        guard let lead = tail.first else { return false }
        let needed = lead & 0xE0 == 0xC0 ? 2 : lead & 0xF0 == 0xE0 ? 3 : lead & 0xF8 == 0xF0 ? 4 : 0
        return needed > tail.count && tail.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 }
    }

    static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: nil
        case 0x00..<0x20, 0x7F: hexEscape(UInt8(scalar.value))
        case 0x80..<0xA0: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: nil
        }
    }

    static func hexEscape(_ byte: UInt8) -> String {
        "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}
