import Shared

/// `write(bytes:…)`, `writeOut()` and `flush()` are the sink's requirements as they are.
extension PcapFileWriter: CaptureSink {}
