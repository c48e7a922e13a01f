/// What a monitoring service says the moment it is live: the device its traffic goes through (a
/// routed target's TUN, a passive target's interface) and the sentence for the person.
package struct ServiceLive: Sendable {
    package let device: String
    package let sentence: String
}
