/// Who may have a running server make a new address (`tunnelvision ui link`): the data
/// directory's owner — whose history it serves — the user the server runs as, and root, who can
/// read everything anyway. Asked with the peer's credentials from the kernel (SO_PEERCRED), never
/// with anything the peer says. The channel's own socket sits in a directory only its owner can
/// enter; this is the second lock.
package enum WebLinkPermission: Sendable, Equatable {
    case allowed
    /// Refused, with the sentence the asking command prints.
    case refused(String)

    package static func decide(peer: UInt32, directoryOwner: UInt32?, server: UInt32) -> WebLinkPermission {
        if peer == 0 || peer == server || peer == directoryOwner { return .allowed }
        return .refused("only the data directory's owner (user \(directoryOwner.map(String.init) ?? "unknown")) "
                        + "or the user serving it (user \(server)) may make an address for it; you are user \(peer)")
    }
}
