import Shared

extension HistoryReader {
    /// Rows a grouping reads per query when it matches a search row by row.
    static let groupingBatch = 2_000

    /// The connections `filter` keeps, over the whole history, by host or program: the first
    /// `limit` groups ranked by bytes, and how many there are. The store sums them when it can
    /// narrow by everything asked; a search it cannot narrow by is matched row by row, every row
    /// the store keeps read in id order with its group's value as the store computes it (the
    /// same as for the summed groups).
    package func groups(by grouping: HistoryGrouping, filter: HistoryFilter, limit: Int) async throws(HistoryError) -> HistoryGroups {
        if case .failure(let refusal) = filter.search { throw HistoryError.unreadable("its search cannot be read: \(refusal)") }
        let narrowing = filter.storeNarrowing(order: nil)
        do {
            guard filter.isSearching else {
                let (totals, total) = try await store.flowGroups(by: grouping.key, limit: limit, narrowing: narrowing)
                return HistoryGroups(grouping: grouping, groups: totals.map { HistoryGroup($0, grouping: grouping) }, total: total,
                                     matchedRowByRow: false)
            }
            var groups: [FlowSortValue: FlowGroupTotals] = [:]
            var lastID: Int64 = 0
            while true {
                let rows = try await store.groupMembers(by: grouping.key, afterID: lastID, limit: Self.groupingBatch, narrowing: narrowing)
                for listed in rows where filter.matches(HistoryFlow(listed.flow, localAddresses: localAddresses)) {
                    let value = listed.cursor.value
                    if groups[value] == nil { groups[value] = FlowGroupTotals(value: value, first: listed.flow) } else { groups[value]!.add(listed.flow) }
                }
                guard rows.count == Self.groupingBatch, let last = rows.last else { break }
                lastID = last.flow.id
            }
            let ranked = groups.values.sorted(by: FlowGroupTotals.ranked).prefix(max(0, limit))
            return HistoryGroups(grouping: grouping, groups: ranked.map { HistoryGroup($0, grouping: grouping) }, total: groups.count,
                                 matchedRowByRow: true)
        } catch {
            throw HistoryError.of(error)
        }
    }
}
