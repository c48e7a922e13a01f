import Shared

/// The ring already drops and counts when full and wakes once per call to `notifyConsumer()`.
extension RingBufferProducer: LiveFeedSink {
    package func publish(_ meta: PacketMeta) -> Bool { push(meta) }
}
