/// Why a question (what a reading command or the web API asks of the data directory) got no
/// answer: the exact sentence the command prints after "tunnelvision: ", and what kind of
/// failure it is, so the command picks its exit status and the API its HTTP status from one fact.
package struct QuestionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// A parameter the person gave cannot be read (the command's usage error, exit status 2).
        case badParameter
        /// What was asked for is not there: no history yet, an unknown connection, packet or capture.
        case notFound
        /// It needs a running tunnel and none serves the data directory.
        case noTunnel
        /// It would delete something the person has not agreed to lose (audit evidence); nothing
        /// was done. The sentence says what and how to agree (`parameter` names the switch).
        case needsConfirmation
        /// Something could not be read or written; the sentence says what.
        case failed
    }

    /// A parameter whose value was refused, when a screen has a field for it: the name the web
    /// API gives it (`search`) and what is wrong with the value in words that stand alone, for
    /// the screen to say beside its field; `message` says the same for the command.
    package struct RefusedParameter: Sendable, Equatable {
        package let name: String
        package let problem: String

        package init(name: String, problem: String) {
            self.name = name
            self.problem = problem
        }
    }

    package let kind: Kind
    package let message: String
    /// Nil unless one field's value is what was refused.
    package let parameter: RefusedParameter?

    package init(_ kind: Kind, _ message: String, parameter: RefusedParameter? = nil) {
        self.kind = kind
        self.message = message
        self.parameter = parameter
    }

    package var description: String { message }

    static func usage(_ message: String) -> QuestionFailure { QuestionFailure(.badParameter, message) }

    init(_ failure: HistoryAccess.Failure, prefix: String = "") {
        self.init(failure.isMissing ? .notFound : .failed, prefix + failure.description)
    }

    init(_ error: InspectorError) {
        let kind: Kind = switch error {
        case .history(.unknownFlow), .packetOutOfRange, .export(.nothingToWrite): .notFound
        case .history, .bytesUnavailable, .export: .failed
        }
        self.init(kind, error.description)
    }
}
