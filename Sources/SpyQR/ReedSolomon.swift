/// Reed–Solomon error correction over GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    /// `exp[i]` is α^i for i in 0..<510 (doubled so products need no modulo); `log[x]` its inverse.
    private static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for power in 255..<512 { exp[power] = exp[power - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return tables.exp[tables.log[Int(a)] + tables.log[Int(b)]]
    }

    /// Coefficients of ∏(x − α^i) for i in 0..<degree, highest power first, the leading 1 left out.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                coefficients[index] = multiply(coefficients[index], root)
                if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
            }
            root = multiply(root, 2)
        }
        return coefficients
    }

    /// The remainder of `data`·x^degree divided by the generator: the error correction codewords.
    static func remainder(of data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result[0]
            result.removeFirst()
            result.append(0)
            for index in 0..<result.count { result[index] ^= multiply(generator[index], factor) }
        }
        return result
    }
}
