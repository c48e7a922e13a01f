import Foundation

/// The way into the activity axis, a stretch per level from the widest to the narrowest, so the
/// way out mirrors the way in: back one level at a time, or straight to the whole history. Does
/// not check that a level lies inside the previous one: only bars of the drawn axis are offered.
public struct ScrubZoom: Sendable, Equatable {
    public private(set) var levels: [ClosedRange<Date>]

    public init(levels: [ClosedRange<Date>] = []) {
        self.levels = levels
    }

    public static let wholeHistory = ScrubZoom()

    /// What the axis shows; nil = the whole history.
    public var current: ClosedRange<Date>? { levels.last }
    public var depth: Int { levels.count }
    public var isZoomed: Bool { !levels.isEmpty }
    /// "All" next to "back" only past the first level, where the two differ.
    public var offersFullReset: Bool { levels.count > 1 }

    public mutating func zoom(into range: ClosedRange<Date>) {
        levels.append(range)
    }

    /// Back one level; returns what the axis shows then (nil = the whole history).
    @discardableResult
    public mutating func zoomOut() -> ClosedRange<Date>? {
        _ = levels.popLast()
        return current
    }

    public mutating func reset() {
        levels.removeAll()
    }
}
