/// The module grid while a symbol is built: function patterns, data placement, masking, format and version
/// information, and the penalty score.
struct QRMatrix {
    let size: Int
    private(set) var modules: [Bool]
    /// Modules of the function patterns (finders, separators, timing, alignment, format, version), which data and
    /// masks leave alone.
    private var reserved: [Bool]

    init(version: Int) {
        size = 17 + 4 * version
        modules = [Bool](repeating: false, count: size * size)
        reserved = [Bool](repeating: false, count: size * size)
        drawFunctionPatterns(version: version)
    }

    /// A finished grid, for scoring.
    init(size: Int, modules: [Bool]) {
        self.size = size
        self.modules = modules
        reserved = [Bool](repeating: true, count: size * size)
    }

    subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    private mutating func setFunction(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        reserved[y * size + x] = true
    }

    // MARK: Function patterns

    private mutating func drawFunctionPatterns(version: Int) {
        for index in 0..<size {
            setFunction(6, index, index % 2 == 0)
            setFunction(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            // The 7×7 finder with its one-module light separator.
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    setFunction(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let centres = QRTables.alignmentCentres(version: version)
        for (i, cx) in centres.enumerated() {
            for (j, cy) in centres.enumerated() {
                let last = centres.count - 1
                // The three corners the finders occupy.
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { setFunction(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormat(mask: 0)
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for index in 0..<18 {
                let dark = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3
                let b = index / 3
                setFunction(a, b, dark)
                setFunction(b, a, dark)
            }
        }
    }

    /// Both copies of the 15 format bits (level M, the mask) and the always-dark module.
    mutating func drawFormat(mask: Int) {
        let data = 0b00 << 3 | mask  // level M is 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(8, index, bit(index)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
        for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
        setFunction(8, size - 8, true)
    }

    // MARK: Data and masks

    /// Places the codewords in the two-module-wide zigzag from the bottom right, skipping the vertical timing
    /// column; modules left over (the remainder bits) stay light.
    mutating func placeData(_ codewords: [UInt8]) {
        var bitIndex = 0
        let totalBits = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !reserved[y * size + x] && bitIndex < totalBits {
                    modules[y * size + x] = (codewords[bitIndex >> 3] >> UInt8(7 - (bitIndex & 7))) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// Flips every data module the mask pattern selects (x is the column, y the row).
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !reserved[y * size + x] {
                let flip: Bool
                switch mask {
                case 0: flip = (x + y) % 2 == 0
                case 1: flip = y % 2 == 0
                case 2: flip = x % 3 == 0
                case 3: flip = (x + y) % 3 == 0
                case 4: flip = (x / 3 + y / 2) % 2 == 0
                case 5: flip = x * y % 2 + x * y % 3 == 0
                case 6: flip = (x * y % 2 + x * y % 3) % 2 == 0
                default: flip = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { modules[y * size + x].toggle() }
            }
        }
    }

    // MARK: Penalty

    /// N1 + N2 + N3 + N4 of ISO/IEC 18004 §7.8.3, counted inside the symbol.
    func penalty() -> Int {
        var total = 0
        for line in 0..<size {
            let row = (0..<size).map { self[$0, line] }
            let column = (0..<size).map { self[line, $0] }
            total += runPenalty(row) + runPenalty(column)
            total += finderLikePenalty(row) + finderLikePenalty(column)
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = self[x, y]
                if colour == self[x + 1, y] && colour == self[x, y + 1] && colour == self[x + 1, y + 1] {
                    total += 3
                }
            }
        }
        let dark = modules.reduce(0) { $0 + ($1 ? 1 : 0) }
        // Each full 5 % step away from half dark costs 10.
        let deviation = abs(dark * 100 - size * size * 50)
        total += 10 * (deviation / (size * size * 5))
        return total
    }

    /// N1: each run of five or more modules of one colour costs 3, plus 1 per module beyond five.
    private func runPenalty(_ line: [Bool]) -> Int {
        var total = 0
        var runLength = 0
        var previous = line[0]
        for module in line {
            if module == previous {
                runLength += 1
            } else {
                if runLength >= 5 { total += runLength - 2 }
                runLength = 1
                previous = module
            }
        }
        if runLength >= 5 { total += runLength - 2 }
        return total
    }

    /// N3: each dark–light–dark×3–light–dark with four light modules before or after it costs 40.
    private func finderLikePenalty(_ line: [Bool]) -> Int {
        let before: [Bool] = [false, false, false, false, true, false, true, true, true, false, true]
        let after: [Bool] = [true, false, true, true, true, false, true, false, false, false, false]
        guard line.count >= 11 else { return 0 }
        var total = 0
        for start in 0...(line.count - 11) {
            let window = line[start..<start + 11]
            if window.elementsEqual(before) || window.elementsEqual(after) { total += 40 }
        }
        return total
    }
}
