/// The version every part of TunnelVision reports.
public enum ProductVersion {
    public static let current = "0.1.0"
}
