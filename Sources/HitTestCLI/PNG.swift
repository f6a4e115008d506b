import Foundation

/// An RGB image and our own PNG codec: the encoder writes 8-bit RGB with filter 0 and one
/// fixed-Huffman deflate block whose matches repeat the previous pixel or the row above (hit
/// maps are flat, so that is most of them); the decoder reads stored and fixed-Huffman blocks
/// back, for the tests.
public struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Row-major RGB bytes, 3 per pixel.
    public var pixels: [UInt8]

    /// A black image.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
    }

    /// The colour at (x, y).
    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        get {
            let i = (y * width + x) * 3
            return (pixels[i], pixels[i + 1], pixels[i + 2])
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            let i = (y * width + x) * 3
            pixels[i] = newValue.0
            pixels[i + 1] = newValue.1
            pixels[i + 2] = newValue.2
        }
    }

    /// The PNG file.
    public func pngData() -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity(height * (width * 3 + 1))
        for y in 0..<height {
            raw.append(0)  // filter type 0 (none)
            raw.append(contentsOf: pixels[(y * width * 3)..<((y + 1) * width * 3)])
        }
        var zlib: [UInt8] = [0x78, 0x01]
        zlib += Deflate.fixedHuffman(raw, rowBytes: width * 3 + 1)
        zlib.append(contentsOf: bigEndian(PNGChecksums.adler32(raw)))
        var out = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8-bit, RGB, deflate, filter 0, no interlace
        out.append(chunk("IHDR", header))
        out.append(chunk("IDAT", zlib))
        out.append(chunk("IEND", []))
        return out
    }

    /// Decodes a PNG written by `pngData()` (8-bit RGB, stored blocks, filter 0); nil otherwise.
    public init?(png data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count > 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        var i = 8
        var w = 0, h = 0
        var idat: [UInt8] = []
        while i + 8 <= bytes.count {
            let length = Int(readBE(bytes, i))
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + length <= bytes.count else { return nil }
            let body = Array(bytes[(i + 8)..<(i + 8 + length)])
            guard readBE(bytes, i + 8 + length) == PNGChecksums.crc32(Array(bytes[(i + 4)..<(i + 8 + length)])) else { return nil }
            switch type {
            case "IHDR":
                guard body.count == 13, body[8] == 8, body[9] == 2 else { return nil }
                w = Int(readBE(body, 0))
                h = Int(readBE(body, 4))
            case "IDAT": idat += body
            default: break
            }
            i += 12 + length
        }
        guard w > 0, h > 0, idat.count > 6 else { return nil }
        guard let raw = Deflate.inflate(idat, from: 2) else { return nil }
        guard raw.count == h * (w * 3 + 1), PNGChecksums.adler32(raw) == readBE(idat, idat.count - 4) else { return nil }
        self.init(width: w, height: h)
        for y in 0..<h {
            guard raw[y * (w * 3 + 1)] == 0 else { return nil }
            let from = y * (w * 3 + 1) + 1
            pixels.replaceSubrange((y * w * 3)..<((y + 1) * w * 3), with: raw[from..<(from + w * 3)])
        }
    }
}

private func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

private func readBE(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
}

private func chunk(_ type: String, _ body: [UInt8]) -> Data {
    let typed = Array(type.utf8) + body
    return Data(bigEndian(UInt32(body.count)) + typed + bigEndian(PNGChecksums.crc32(typed)))
}

/// Deflate (RFC 1951) as far as this encoder needs: one fixed-Huffman block, and an inflater
/// for stored and fixed-Huffman blocks.
enum Deflate {
    /// LSB-first bit writer.
    struct Bits {
        var bytes: [UInt8] = []
        var acc: UInt32 = 0
        var count = 0

        mutating func put(_ value: UInt32, _ n: Int) {
            acc |= value << UInt32(count)
            count += n
            while count >= 8 {
                bytes.append(UInt8(acc & 0xFF))
                acc >>= 8
                count -= 8
            }
        }

        /// A Huffman code goes most significant bit first.
        mutating func code(_ value: UInt32, _ n: Int) {
            var r: UInt32 = 0
            for i in 0..<n { r |= ((value >> UInt32(i)) & 1) << UInt32(n - 1 - i) }
            put(r, n)
        }

        mutating func flush() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(acc & 0xFF)) }
            return bytes
        }
    }

    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    static func literal(_ v: Int, _ bits: inout Bits) {
        switch v {
        case 0...143: bits.code(UInt32(0x30 + v), 8)
        case 144...255: bits.code(UInt32(0x190 + v - 144), 9)
        case 256...279: bits.code(UInt32(v - 256), 7)
        default: bits.code(UInt32(0xC0 + v - 280), 8)
        }
    }

    /// One final fixed-Huffman block; matches at distance 3 (the previous pixel) or `rowBytes`
    /// (the row above), greedy, up to 258 bytes.
    static func fixedHuffman(_ data: [UInt8], rowBytes: Int) -> [UInt8] {
        var bits = Bits()
        bits.put(1, 1)  // final block
        bits.put(1, 2)  // fixed Huffman
        var i = 0
        let candidates = rowBytes <= 32768 ? [3, rowBytes] : [3]
        while i < data.count {
            var best = 0, bestDistance = 0
            for d in candidates where d <= i {
                var n = 0
                while n < 258 && i + n < data.count && data[i + n] == data[i + n - d] { n += 1 }
                if n > best { best = n; bestDistance = d }
            }
            if best >= 3 {
                let li = lengthBase.lastIndex { $0 <= best }!
                literal(257 + li, &bits)
                bits.put(UInt32(best - lengthBase[li]), lengthExtra[li])
                let di = distBase.lastIndex { $0 <= bestDistance }!
                bits.code(UInt32(di), 5)
                bits.put(UInt32(bestDistance - distBase[di]), distExtra[di])
                i += best
            } else {
                literal(Int(data[i]), &bits)
                i += 1
            }
        }
        literal(256, &bits)
        return bits.flush()
    }

    /// Inflates stored and fixed-Huffman blocks starting at byte `start`; nil for anything else.
    static func inflate(_ input: [UInt8], from start: Int) -> [UInt8]? {
        var pos = start * 8
        func bit() -> UInt32? {
            guard pos / 8 < input.count else { return nil }
            let b = (UInt32(input[pos / 8]) >> UInt32(pos % 8)) & 1
            pos += 1
            return b
        }
        func bits(_ n: Int) -> Int? {
            var v = 0
            for i in 0..<n {
                guard let b = bit() else { return nil }
                v |= Int(b) << i
            }
            return v
        }
        var out: [UInt8] = []
        while true {
            guard let final = bits(1), let type = bits(2) else { return nil }
            if type == 0 {
                pos = (pos + 7) / 8 * 8
                let p = pos / 8
                guard p + 4 <= input.count else { return nil }
                let n = Int(input[p]) | Int(input[p + 1]) << 8
                guard p + 4 + n <= input.count else { return nil }
                out += input[(p + 4)..<(p + 4 + n)]
                pos = (p + 4 + n) * 8
            } else if type == 1 {
                while true {
                    var code: UInt32 = 0
                    var symbol = -1
                    for n in 1...9 {
                        guard let b = bit() else { return nil }
                        code = code << 1 | b
                        if n == 7, code <= 23 { symbol = 256 + Int(code); break }
                        if n == 8, code >= 0x30, code <= 0xBF { symbol = Int(code) - 0x30; break }
                        if n == 8, code >= 0xC0, code <= 0xC7 { symbol = 280 + Int(code) - 0xC0; break }
                        if n == 9, code >= 0x190 { symbol = 144 + Int(code) - 0x190; break }
                    }
                    guard symbol >= 0 else { return nil }
                    if symbol < 256 { out.append(UInt8(symbol)); continue }
                    if symbol == 256 { break }
                    let li = symbol - 257
                    guard li < lengthBase.count, let extra = bits(lengthExtra[li]) else { return nil }
                    let length = lengthBase[li] + extra
                    var dcode: UInt32 = 0
                    for _ in 0..<5 {
                        guard let b = bit() else { return nil }
                        dcode = dcode << 1 | b
                    }
                    guard Int(dcode) < distBase.count, let dextra = bits(distExtra[Int(dcode)]) else { return nil }
                    let distance = distBase[Int(dcode)] + dextra
                    guard distance <= out.count else { return nil }
                    for _ in 0..<length { out.append(out[out.count - distance]) }
                }
            } else {
                return nil
            }
            if final == 1 { return out }
        }
    }
}

/// The two checksums PNG needs.
enum PNGChecksums {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for chunk in stride(from: 0, to: bytes.count, by: 5552) {
            for v in bytes[chunk..<min(chunk + 5552, bytes.count)] {
                a += UInt32(v)
                b += a
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}

/// A 3x5 pixel font for legends: digits, capital letters and a little punctuation (lower-case
/// letters are drawn as capitals). Each glyph is five rows of three bits, top row first.
enum TinyFont {
    static let glyphs: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
        "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 2, 2], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
        "A": [2, 5, 7, 5, 5], "B": [6, 5, 6, 5, 6], "C": [3, 4, 4, 4, 3], "D": [6, 5, 5, 5, 6], "E": [7, 4, 6, 4, 7],
        "F": [7, 4, 6, 4, 4], "G": [3, 4, 5, 5, 3], "H": [5, 5, 7, 5, 5], "I": [7, 2, 2, 2, 7], "J": [1, 1, 1, 5, 2],
        "K": [5, 5, 6, 5, 5], "L": [4, 4, 4, 4, 7], "M": [5, 7, 7, 5, 5], "N": [6, 5, 5, 5, 5], "O": [2, 5, 5, 5, 2],
        "P": [6, 5, 6, 4, 4], "Q": [2, 5, 5, 6, 3], "R": [6, 5, 6, 5, 5], "S": [3, 4, 2, 1, 6], "T": [7, 2, 2, 2, 2],
        "U": [5, 5, 5, 5, 7], "V": [5, 5, 5, 5, 2], "W": [5, 5, 7, 7, 5], "X": [5, 5, 2, 5, 5], "Y": [5, 5, 2, 2, 2],
        "Z": [7, 1, 2, 4, 7], "-": [0, 0, 7, 0, 0], "_": [0, 0, 0, 0, 7], ".": [0, 0, 0, 0, 2], ":": [0, 2, 0, 2, 0],
        "/": [1, 1, 2, 4, 4], "(": [1, 2, 2, 2, 1], ")": [4, 2, 2, 2, 4], "%": [5, 1, 2, 4, 5], "#": [5, 7, 5, 7, 5],
        "@": [2, 5, 7, 4, 3], "x": [0, 5, 2, 5, 0], " ": [0, 0, 0, 0, 0], "=": [0, 7, 0, 7, 0], ",": [0, 0, 0, 2, 4], "+": [0, 2, 7, 2, 0], ";": [0, 2, 0, 2, 4],
        "?": [6, 1, 2, 0, 2], "!": [2, 2, 2, 0, 2], "[": [3, 2, 2, 2, 3], "]": [6, 2, 2, 2, 6], "<": [1, 2, 4, 2, 1],
        ">": [4, 2, 1, 2, 4], "'": [2, 2, 0, 0, 0], "\"": [5, 5, 0, 0, 0], "*": [0, 5, 2, 5, 0], "&": [2, 5, 2, 5, 3],
        "$": [3, 6, 2, 3, 6], "|": [2, 2, 2, 2, 2], "{": [3, 2, 6, 2, 3], "}": [6, 2, 3, 2, 6], "~": [0, 3, 6, 0, 0],
        "^": [2, 5, 0, 0, 0], "`": [4, 2, 0, 0, 0], "\\": [4, 4, 2, 1, 1],
    ]

    /// The pixel width of `text` drawn at `scale`.
    static func width(_ text: String, scale: Int) -> Int { text.count * 4 * scale }

    /// `text`, cut with "..." to fit `width` pixels (only when even the widest image cannot hold it).
    static func fit(_ text: String, width: Int, scale: Int) -> String {
        guard Self.width(text, scale: scale) > width else { return text }
        let keep = max(0, width / (4 * scale) - 3)
        return String(text.prefix(keep)) + "..."
    }

    /// The glyph drawn for a character (lower-case letters as capitals; '#' for the unknown).
    static func glyph(_ ch: Character) -> [UInt8] {
        glyphs[ch] ?? glyphs[Character(ch.uppercased())] ?? glyphs["#"]!
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide.
    static func draw(_ text: String, at x: Int, _ y: Int, scale: Int, color: (UInt8, UInt8, UInt8), into image: inout RGBImage) {
        var cx = x
        for ch in text {
            let g = glyph(ch)
            for (row, bits) in g.enumerated() {
                for col in 0..<3 where bits & (4 >> col) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale { image[cx + col * scale + dx, y + row * scale + dy] = color }
                    }
                }
            }
            cx += 4 * scale
        }
    }
}
