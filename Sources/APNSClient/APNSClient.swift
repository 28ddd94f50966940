import APNSCore

/// Namespace of the sending engine (filled in by the transport work).
public enum APNSClientModule {}
