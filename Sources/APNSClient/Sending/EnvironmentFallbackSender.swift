import APNSCore
import APNSPlatform

/// `--env auto`: sends to one environment, then sends each device that environment answered
/// `BadDeviceToken` once to the other, so a debug build's token reaches the sandbox and a TestFlight
/// or App Store build's token reaches production without the user knowing which is which.
///
/// Two ordinary `PushSender` runs, one after the other. The first run's results stream out as they
/// arrive, except `BadDeviceToken` answers, which are held back (a list as long as the number of
/// such devices, never the whole batch). The second run sends to exactly those devices; its result is
/// each one's final result, marked with the environment that refused it first. Every device still
/// ends with exactly one result: when the second run cannot give one (an interrupt before it got
/// there), the held-back answer from the first run is reported instead.
public final class EnvironmentFallbackSender {
    private let first: SenderConfiguration
    private let second: SenderConfiguration
    private let firstSender: PushSender
    private let request: PushRequest
    private let observer: ((SendEvent) -> Void)?
    /// After an interrupted `run`: the first run's requests taken from the source but never sent.
    public var leftUnsent: [PushJob] { firstSender.leftUnsent }

    /// A run to `first` then, for `BadDeviceToken` devices, to `second`. Both configurations should
    /// name their `environment`, so results say which one answered. Fails when the TLS settings
    /// cannot be built (an unreadable CA file, a key that does not fit the certificate).
    public init(
        first: SenderConfiguration, second: SenderConfiguration, request: PushRequest, devices: DeviceSource,
        observer: ((SendEvent) -> Void)? = nil
    ) throws(TransportFailure) {
        self.first = first
        self.second = second
        self.request = request
        self.observer = observer
        firstSender = try PushSender(configuration: first, request: request, devices: devices, observer: observer)
    }

    /// Sends every device, calling `onResult` exactly once per device with its final result (not in
    /// input order). The summary counts final results and both runs' connections.
    public func run(interrupts: (any InterruptSource)? = nil, _ onResult: (PushResult) -> Void) -> SendSummary {
        var summary = SendSummary()
        var heldBack: [PushResult] = []
        let firstSummary = firstSender.run(interrupts: interrupts) { result in
            if case .known(.badDeviceToken)? = result.reason, result.device != nil {
                heldBack.append(result)
            } else {
                summary.count(result)
                onResult(result)
            }
        }
        summary.connections = firstSummary.connections
        summary.resendsUnknown = firstSummary.resendsUnknown
        summary.failure = firstSummary.failure
        summary.interruptedBy = firstSummary.interruptedBy
        summary.listLeftUnread = firstSummary.listLeftUnread
        /// The first run's answer is final for every held-back device the second run did not answer.
        func reportHeldBack(except answered: [DeviceToken: Int]) {
            var answered = answered
            for held in heldBack {
                guard let device = held.device else { continue }
                if let n = answered[device], n > 0 {
                    answered[device] = n - 1
                    continue
                }
                summary.count(held)
                onResult(held)
            }
        }
        guard !heldBack.isEmpty, firstSummary.interruptedBy == nil else {
            reportHeldBack(except: [:])
            return summary
        }
        let devices = heldBack.compactMap(\.device)
        let secondSender: PushSender
        do {
            secondSender = try PushSender(
                configuration: second, request: request, devices: DeviceArraySource(devices),
                observer: observer)
        } catch {
            summary.failure = summary.failure ?? error
            reportHeldBack(except: [:])
            return summary
        }
        var answered: [DeviceToken: Int] = [:]
        let refusedBy = first.environment
        // The second run numbers its devices afresh: each keeps its place in the input the user gave.
        var positions: [DeviceToken: Int] = [:]
        for held in heldBack { if let d = held.device, let p = held.inputPosition { positions[d] = p } }
        let secondSummary = secondSender.run(interrupts: interrupts) { result in
            var final = result
            final.badDeviceTokenIn = refusedBy
            final.inputPosition = result.device.flatMap { positions[$0] }
            if let device = result.device { answered[device, default: 0] += 1 }
            summary.count(final)
            onResult(final)
        }
        summary.connections += secondSummary.connections
        summary.failure = summary.failure ?? secondSummary.failure
        summary.interruptedBy = secondSummary.interruptedBy
        reportHeldBack(except: answered)
        return summary
    }
}
