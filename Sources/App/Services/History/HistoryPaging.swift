/// How pages join the list already shown.
package enum HistoryPaging {
    /// `existing` followed by the flows of `page` it does not hold yet, in order: a flow whose
    /// last sighting moved between two loads is not shown twice.
    package static func appending(_ page: [HistoryFlow], to existing: [HistoryFlow]) -> [HistoryFlow] {
        var seen = Set(existing.map(\.id))
        var merged = existing
        for flow in page where seen.insert(flow.id).inserted { merged.append(flow) }
        return merged
    }
}
