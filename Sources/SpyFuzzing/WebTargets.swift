import SpyProtocol
import SpyWeb

/// A browser's first bytes, or anyone's: the request head parser and the routes it leads to.
enum HTTPRequestTarget {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let cut = Int(input.byte() % 64) + 1
        let stream = input.rest()
        var parser = HTTPRequestParser()
        var fed = 0
        var outcome = HTTPRequestParser.Outcome.needMore
        while fed < stream.count, outcome == .needMore {
            let end = min(stream.count, fed + cut)
            outcome = parser.feed(stream[fed..<end])
            fed = end
        }
        switch outcome {
        case .needMore:
            require(fed <= HTTPRequestParser.maxHeadBytes + cut, "a head past the cap still waits for more")
        case .failed(let status, _):
            require(status.rawValue >= 400, "a refusal with status \(status.rawValue)")
        case .complete(let request, let leftover):
            require(leftover.count <= stream.count, "more left over than was sent")
            require(request.method == "GET" || request.method == "HEAD", "a \(request.method) request accepted")
            let site = WebSite(hostNames: HostNames(machineName: "fuzz", publicNames: ["h"]))
            switch WebRoutes.route(request, site: site) {
            case .respond(let response):
                require(!response.serialized(includeBody: !request.isHead).isEmpty, "an empty response")
            case .upgrade(let response):
                require(response.status == .switchingProtocols, "an upgrade answered \(response.status)")
            }
        }
    }
}

/// Everything a browser's socket can send after the upgrade: frames, fragments, control frames, closes.
enum WebSocketTarget {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let cut = Int(input.byte() % 64) + 1
        let stream = input.rest()
        var decoder = WebSocketDecoder(maxMessage: FrameLimits.defaultMaxPayload)
        var fed = 0
        while fed < stream.count {
            let end = min(stream.count, fed + cut)
            decoder.feed(stream[fed..<end])
            fed = end
            require(
                decoder.bufferedByteCount <= fed + FrameLimits.defaultMaxPayload, "the decoder holds more than it got")
            while true {
                let event: WebSocketEvent?
                do {
                    event = try decoder.next()
                } catch {
                    return
                }
                guard let event else { break }
                switch event {
                case .text(let payload):
                    require(payload.count <= FrameLimits.defaultMaxPayload, "a message over the limit")
                    require(String(validating: payload, as: UTF8.self) != nil, "a text message that is not UTF-8")
                    FrameStreamTarget.check(payload)
                case .ping(let payload), .pong(let payload):
                    require(payload.count <= WebSocketFrame.maxControlPayload, "a control frame over 125 bytes")
                case .close:
                    return
                }
            }
        }
    }
}
