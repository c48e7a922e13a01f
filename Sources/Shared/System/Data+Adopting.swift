import Foundation

extension Data {
    /// Appends `other`; into an empty `Data` it takes `other`'s storage instead of copying it.
    /// On the inspected path every record crosses several steps, and each copy of it showed in
    /// the profile. A slice (not indexed from zero) is still copied, so the result always is.
    package mutating func append(adopting other: Data) {
        if isEmpty, other.startIndex == 0 { self = other } else { append(other) }
    }
}
