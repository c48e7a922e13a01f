import Foundation

/// Reading the tree tshark prints with `-T json --no-duplicate-keys`: objects whose keys are
/// field names (or a subtree's label), values that are strings, objects, or — when a key occurs
/// more than once at one level — an array of them, in the order of the packet.
///
/// Only arrays carry order (a JSON object's keys do not, once parsed); every search below visits
/// an object's keys sorted, so a result is at least repeatable, and relies on arrays for order.
enum TsharkJSON {
    /// A value that may be one or several: always a list.
    static func list(_ value: Any?) -> [Any] {
        switch value {
        case nil: []
        case let array as [Any]: array
        case let some?: [some]
        }
    }

    static func object(_ value: Any?) -> [String: Any]? {
        list(value).first as? [String: Any]
    }

    /// Every value of `key` anywhere under `node`, depth first, arrays flattened in order. The
    /// subtree under a match is not searched again.
    static func values(_ key: String, in node: Any?) -> [Any] {
        var found: [Any] = []
        collect(key, in: node, into: &found)
        return found
    }

    /// The string values of `key` anywhere under `node`, in order.
    static func strings(_ key: String, in node: Any?) -> [String] {
        values(key, in: node).compactMap { $0 as? String }
    }

    /// Every object under `node` (itself included) that has the field `key`, in order; the inside
    /// of a match is not searched.
    static func objects(having key: String, in node: Any?) -> [[String: Any]] {
        var found: [[String: Any]] = []
        collectObjects(having: key, in: node, into: &found)
        return found
    }

    private static func collect(_ key: String, in node: Any?, into found: inout [Any]) {
        switch node {
        case let array as [Any]:
            for element in array { collect(key, in: element, into: &found) }
        case let object as [String: Any]:
            for name in object.keys.sorted() {
                if name == key {
                    found.append(contentsOf: list(object[name]))
                } else {
                    collect(key, in: object[name], into: &found)
                }
            }
        default:
            break
        }
    }

    private static func collectObjects(having key: String, in node: Any?, into found: inout [[String: Any]]) {
        switch node {
        case let array as [Any]:
            for element in array { collectObjects(having: key, in: element, into: &found) }
        case let object as [String: Any]:
            if object[key] != nil {
                found.append(object)
                return
            }
            for name in object.keys.sorted() { collectObjects(having: key, in: object[name], into: &found) }
        default:
            break
        }
    }

    /// tshark's numbers: decimal ("22") or hexadecimal ("0x0304").
    static func integer(_ text: String?) -> Int? {
        guard let text else { return nil }
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        return Int(text)
    }
}
