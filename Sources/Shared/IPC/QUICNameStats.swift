/// What reading QUIC flows' Initial packets did: the server name the client announced, and what
/// the server answered. Together they answer "why does this UDP 443 flow have no name?": not
/// opened, opened but the ClientHello never completed, or never seen at all.
package struct QUICNameStats: Codable, Sendable, Equatable {
    /// Client Initial packets seen.
    package var initialsSeen: UInt64
    /// Initials whose protection was removed with keys derived from the connection ID.
    package var initialsOpened: UInt64
    /// Initials that could not be opened: an unknown QUIC version or protection that did not verify.
    package var initialsUnopenable: UInt64
    /// Flows whose ClientHello did not complete within the Initials that were kept.
    package var helloIncomplete: UInt64
    /// Flows that took their name from the ClientHello's server name.
    package var flowsNamed: UInt64
    /// Flows whose ClientHello was read whole but carried no server name.
    package var flowsWithoutName: UInt64
    /// Flows whose server's answer was read from its Initials: a ServerHello, or an alert.
    package var serverAnswersRead: UInt64
    /// Server Initials no key derived from the client's connection IDs opened.
    package var serverInitialsUnopenable: UInt64

    package init(initialsSeen: UInt64 = 0, initialsOpened: UInt64 = 0, initialsUnopenable: UInt64 = 0,
                helloIncomplete: UInt64 = 0, flowsNamed: UInt64 = 0, flowsWithoutName: UInt64 = 0,
                serverAnswersRead: UInt64 = 0, serverInitialsUnopenable: UInt64 = 0) {
        self.initialsSeen = initialsSeen
        self.initialsOpened = initialsOpened
        self.initialsUnopenable = initialsUnopenable
        self.helloIncomplete = helloIncomplete
        self.flowsNamed = flowsNamed
        self.flowsWithoutName = flowsWithoutName
        self.serverAnswersRead = serverAnswersRead
        self.serverInitialsUnopenable = serverInitialsUnopenable
    }

    /// Nothing seen yet.
    package static let zero = QUICNameStats()
}
