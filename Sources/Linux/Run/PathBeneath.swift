#if canImport(Glibc)
import Glibc
#endif

/// A directory reached from `base` through `components` without following a symbolic link on
/// the way — for a path inside a user's home, which that user can turn into a link to anywhere
/// between our look and our act (root making, reading or removing through such a link would do
/// it wherever the link leads). `base` itself is followed: it is the administrator's path.
enum PathBeneath {
    /// The directory, opened for reading (and for the `*at` calls); -1 with errno set when a
    /// component is missing, not a directory or a link.
    static func open(_ base: String, _ components: some Sequence<String>) -> Int32 {
        var descriptor = Glibc.open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        for component in components where descriptor >= 0 {
            guard !component.isEmpty, component != ".", component != "..", !component.contains("/") else {
                close(descriptor)
                errno = EINVAL
                return -1
            }
            let next = openat(descriptor, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let saved = errno
            close(descriptor)
            errno = saved
            descriptor = next
        }
        return descriptor
    }
}
