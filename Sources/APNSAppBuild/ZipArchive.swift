internal import CZip

/// An `.ipa` (a zip archive) opened read-only through libzip: entries are found by name and read into memory
/// under a size cap, never extracted, so a hostile name (`../../x`) names nothing on disk and a zip bomb stops
/// at the cap.
final class ZipArchive {
    private let pointer: OpaquePointer
    let path: String

    /// More entries than any app has (an app with its frameworks and assets holds tens of thousands).
    static let maximumEntries: Int64 = 1_000_000

    init(path: String) throws(AppBuildProblem) {
        self.path = path
        var code: Int32 = 0
        guard let opened = zip_open(path, ZIP_RDONLY, &code) else {
            if code == ZIP_ER_NOENT { throw .missing(path: path) }
            if code == ZIP_ER_OPEN || code == ZIP_ER_READ {
                throw .unreadable(path: path, reason: Self.describe(code))
            }
            throw .corrupt(path: path, reason: "not a zip archive (\(Self.describe(code)))")
        }
        pointer = opened
    }

    deinit { zip_discard(pointer) }

    private static func describe(_ code: Int32) -> String {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        return String(cString: zip_error_strerror(&error))
    }

    /// Every entry's name as stored, by index.
    func names() throws(AppBuildProblem) -> [String] {
        let count = zip_get_num_entries(pointer, 0)
        guard count >= 0, count <= Self.maximumEntries else {
            throw .corrupt(path: path, reason: "\(count) entries, more than any app has")
        }
        return (0..<UInt64(count)).map { i in
            zip_get_name(pointer, i, zip_flags_t(ZIP_FL_ENC_RAW)).map { String(cString: $0) } ?? ""
        }
    }

    /// Opens entry `index` as a stream; its declared size must be at most `limit`.
    func open(_ index: Int, name: String, limit: UInt64) throws(AppBuildProblem) -> ZipEntryStream {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(pointer, UInt64(index), 0, &stat) == 0, stat.valid & UInt64(ZIP_STAT_SIZE) != 0 else {
            throw .corrupt(path: path, reason: "\(name): unreadable entry")
        }
        guard stat.size <= limit else {
            throw .corrupt(
                path: path, reason: "\(name): \(stat.size) bytes uncompressed, more than the \(limit) apnsctl reads")
        }
        guard let file = zip_fopen_index(pointer, UInt64(index), 0) else {
            throw .corrupt(path: path, reason: "\(name): cannot be decompressed (\(errorText))")
        }
        return ZipEntryStream(archive: self, file: file, name: name, size: stat.size)
    }

    fileprivate var errorText: String {
        String(cString: zip_error_strerror(zip_get_error(pointer)))
    }
}

/// One entry of a `ZipArchive` being decompressed, read forward only: what lies before a wanted offset is
/// decompressed and dropped, never more than the entry's declared size.
final class ZipEntryStream {
    private let archive: ZipArchive
    private let file: OpaquePointer
    let name: String
    /// The size the archive declares (checked against the cap when opened; the data may be shorter or lie).
    let size: UInt64
    private var position: UInt64 = 0

    fileprivate init(archive: ZipArchive, file: OpaquePointer, name: String, size: UInt64) {
        (self.archive, self.file, self.name, self.size) = (archive, file, name, size)
    }

    deinit { zip_fclose(file) }

    /// Up to `count` bytes from `offset`, which may not lie before what was already read.
    func read(at offset: UInt64, count: Int) throws(AppBuildProblem) -> [UInt8] {
        guard offset >= position else {
            throw .corrupt(path: archive.path, reason: "\(name): offsets point backwards")
        }
        guard offset < size else { return [] }
        var skip = offset - position
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while skip > 0 {
            let n = try next(into: &scratch, at: 0, max: Int(min(skip, UInt64(scratch.count))))
            if n == 0 { return [] }
            skip -= UInt64(n)
        }
        let wanted = Int(min(UInt64(count), size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let n = try next(into: &bytes, at: done, max: wanted - done)
            if n == 0 { break }
            done += n
        }
        return done == wanted ? bytes : Array(bytes[..<done])
    }

    /// The whole entry (its declared size was checked against the cap when it was opened); data longer than
    /// declared is refused rather than read on.
    func readAll() throws(AppBuildProblem) -> [UInt8] {
        let bytes = try read(at: 0, count: Int(size))
        var probe = [UInt8](repeating: 0, count: 1)
        if try next(into: &probe, at: 0, max: 1) > 0 {
            throw .corrupt(path: archive.path, reason: "\(name): more data than its declared size")
        }
        return bytes
    }

    /// Decompresses up to `max` bytes into `buffer` from index `at`; 0 at the end of the entry.
    private func next(into buffer: inout [UInt8], at start: Int, max: Int) throws(AppBuildProblem) -> Int {
        let n = buffer.withUnsafeMutableBytes { raw -> Int64 in
            guard let base = raw.baseAddress else { return 0 }
            return zip_fread(file, base + start, UInt64(max))
        }
        guard n >= 0 else {
            throw .corrupt(path: archive.path, reason: "\(name): cannot be decompressed (\(archive.errorText))")
        }
        position += UInt64(n)
        return Int(n)
    }
}
