/// RFC 9113 §7: the error codes of RST_STREAM and GOAWAY, by name.
package enum HTTP2ErrorCode {
    static let names = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
                        "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
                        "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]

    /// "CANCEL (0x8)"; a code §7 does not define is given by its number alone.
    package static func text(_ code: UInt32) -> String {
        let hex = "0x" + String(code, radix: 16)
        return Int(code) < names.count ? "\(names[Int(code)]) (\(hex))" : "error code \(hex)"
    }
}
