internal import CNghttp2

/// The linked nghttp2, for `apnsctl --version`.
public enum NGHTTP2Library {
    public static var version: String { String(cString: CNghttp2_version_string()) }
}
