#if canImport(Glibc)
import Glibc
#endif

/// The system's words for an errno, in one place.
public enum SystemError {
    public static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
