/// Python the lab servers share, written into their scripts (`\#(LabPython.exactly)` at a line's start).
enum LabPython {
    /// `exactly(c, n)`: n bytes from socket c, or EOFError when it closes first.
    static let exactly = """
        def exactly(c, n):
            data = b""
            while len(data) < n:
                more = c.recv(n - len(data))
                if not more: raise EOFError
                data += more
            return data
        """
}
