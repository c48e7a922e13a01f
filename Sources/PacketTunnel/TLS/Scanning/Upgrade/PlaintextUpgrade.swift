import Shared

/// The protocols that begin in plaintext and may switch the same TCP stream to TLS, each followed
/// to the switch by `UpgradeFollower`; what the flow's opening then says.
package enum PlaintextUpgrade: Sendable, Equatable, CaseIterable {
    case smtp, imap, pop3, ftp, xmpp, ldap, postgres

    package var opening: StreamOpening {
        switch self {
        case .smtp: .smtpStartTLS
        case .imap: .imapStartTLS
        case .pop3: .pop3STLS
        case .ftp: .ftpAuthTLS
        case .xmpp: .xmppStartTLS
        case .ldap: .ldapStartTLS
        case .postgres: .postgresSSLRequest
        }
    }
}
