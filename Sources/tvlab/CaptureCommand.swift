/// `tvlab capture`: a synthetic capture file for fixtures, demos and manual testing.
enum CaptureCommand {
    static func run(_ options: CaptureOptions) async throws(Failure) {
        // Refused before the work, not only at the final (atomic) move.
        if !options.force && FileSystem.exists(options.output) { throw FileSystem.existing(options.output) }
        Console.progress("writing \(options.packets) packets (seed \(options.seed), snaplen \(options.snaplen)) to \(options.output)…")
        try await SyntheticCapture.write(count: options.packets, seed: options.seed, snaplen: options.snaplen,
                                         handshakes: options.handshakes, to: options.output, replace: options.force)
        print("wrote \(options.packets) packets to \(options.output)")
    }
}
