/// A first-in first-out queue on one array: append at the back, take from the front by moving a head
/// index, and reuse the storage once it is empty. The sender's queues hold at most the requests in flight
/// plus the reports of one turn, so the array never grows with the size of a batch.
struct FIFO<Element> {
    private var items: [Element] = []
    private var head = 0

    /// Whether nothing is queued.
    var isEmpty: Bool { head >= items.count }

    /// Queues `element` at the back.
    mutating func append(_ element: Element) { items.append(element) }

    /// Takes the front element, nil when empty.
    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let element = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }
}
