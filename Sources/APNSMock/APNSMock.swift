import APNSCore

/// Namespace of the local APNs (filled in by the transport work).
public enum APNSMockModule {}
