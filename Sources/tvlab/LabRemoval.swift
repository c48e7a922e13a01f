import Linux

extension Lab {
    /// Removes the lab, saying on standard error what of it could not be removed (the next lab's
    /// sweep removes what is left).
    func removeSayingFailures() {
        for failure in remove() { Console.error("the lab is not all removed: \(failure)") }
    }
}
