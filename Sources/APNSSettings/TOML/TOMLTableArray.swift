/// The tables of one `[[name]]` array while the document is read. A class, so each further `[[name]]` appends
/// in place: an array held in an enum payload is copied whenever it is changed, which made a file of many
/// `[[name]]` headers take time quadratic in their number.
final class TOMLTableArray {
    /// Where the first `[[name]]` is.
    let position: TOMLPosition
    private(set) var elements: [TOMLTableBuilder]

    init(first: TOMLTableBuilder, at position: TOMLPosition) { (self.position, elements) = (position, [first]) }

    /// Adds the table of one more `[[name]]`.
    func append(_ element: TOMLTableBuilder) { elements.append(element) }
}
