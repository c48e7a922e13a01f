/// Results of a pure reading kept by input, up to `limit` of them; once full, it starts over
/// rather than keep every input a long capture brings. Never changes an answer: only an input equal
/// to one kept is given that one's result. A value, for one owner; `RecentResults` shares one
/// between threads.
package struct BoundedMemo<Input: Hashable, Output> {
    private var kept: [Input: Output] = [:]
    package let limit: Int

    package init(limit: Int) {
        precondition(limit > 0, "a memo keeps at least one result")
        self.limit = limit
    }

    /// What was kept for `input`, if anything.
    package func output(for input: Input) -> Output? { kept[input] }

    /// Keeps `output` for `input`, starting over first when full.
    package mutating func keep(_ output: Output, for input: Input) {
        if kept.count >= limit { kept.removeAll(keepingCapacity: true) }
        kept[input] = output
    }

    /// `read(input)`, or what it gave for an equal input kept.
    package mutating func output(for input: Input, _ read: (Input) -> Output) -> Output {
        if let known = kept[input] { return known }
        let output = read(input)
        keep(output, for: input)
        return output
    }

    /// How many results are kept now.
    package var count: Int { kept.count }
}

extension BoundedMemo: Sendable where Input: Sendable, Output: Sendable {}
