import Foundation

/// The way into the activity axis, a stretch per level from the widest to the narrowest, so the
/// way out mirrors the way in: back one level at a time, or straight to the whole history. Does
/// not check that a level lies inside the previous one: only bars of the drawn axis are offered.
package struct ScrubZoom: Sendable, Equatable {
    package private(set) var levels: [ClosedRange<Date>]

    package init(levels: [ClosedRange<Date>] = []) {
        self.levels = levels
    }

    package static let wholeHistory = ScrubZoom()

    /// What the axis shows; nil = the whole history.
    package var current: ClosedRange<Date>? { levels.last }
    package var depth: Int { levels.count }
    package var isZoomed: Bool { !levels.isEmpty }
    /// "All" next to "back" only past the first level, where the two differ.
    package var offersFullReset: Bool { levels.count > 1 }

    package mutating func zoom(into range: ClosedRange<Date>) {
        levels.append(range)
    }

    /// Back one level; returns what the axis shows then (nil = the whole history).
    @discardableResult
    package mutating func zoomOut() -> ClosedRange<Date>? {
        _ = levels.popLast()
        return current
    }

    package mutating func reset() {
        levels.removeAll()
    }
}
