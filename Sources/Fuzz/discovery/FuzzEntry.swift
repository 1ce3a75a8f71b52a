import SpyFuzzing

/// libFuzzer's entry point for the `discovery` surface; the body lives in SpyFuzzing so the tests replay it too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.discovery.run(bytes)
    return 0
}
