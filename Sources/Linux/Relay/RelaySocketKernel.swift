import Posix
import Shared

/// The calls a relayed TCP leg makes beyond its socket — the connect that makes one, and the
/// event loop's watch on its descriptor — as closures returning values (STYLE practice 9): the
/// system's in the product (`system(_:)`), a script in tests, so the write queue and connection
/// logic run against any answers the kernel can give.
package struct RelaySocketKernel {
    /// Starts a non-blocking connect; nil when no socket could be made at all.
    package var connect: (IPEndpoint) -> (any RelayStreamSocket, ConnectResult)?
    /// Watches a descriptor, calling the handler on every readiness; false when the loop refused.
    package var register: (Int32, EventLoop.Interest, @escaping EventLoop.Handler) -> Bool
    package var modify: (Int32, EventLoop.Interest) -> Bool
    package var unregister: (Int32) -> Void

    package init(connect: @escaping (IPEndpoint) -> (any RelayStreamSocket, ConnectResult)?,
                 register: @escaping (Int32, EventLoop.Interest, @escaping EventLoop.Handler) -> Bool,
                 modify: @escaping (Int32, EventLoop.Interest) -> Bool,
                 unregister: @escaping (Int32) -> Void) {
        self.connect = connect
        self.register = register
        self.modify = modify
        self.unregister = unregister
    }

    /// Real sockets (`TCPSocket`, TCP_NODELAY on) watched by `loop`, carrying `mark` when given.
    package static func system(_ loop: EventLoop, mark: UInt32? = nil) -> RelaySocketKernel {
        RelaySocketKernel(
            connect: { remote in
                guard let (socket, result) = try? TCPSocket.connect(to: remote, mark: mark) else { return nil }
                return (socket, result)
            },
            register: { descriptor, interest, handler in
                (try? loop.register(descriptor, interest: interest, handler: handler)) != nil
            },
            modify: { descriptor, interest in (try? loop.modify(descriptor, interest: interest)) != nil },
            unregister: { descriptor in try? loop.unregister(descriptor) })
    }
}
