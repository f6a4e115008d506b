import Foundation

/// An RGB image and our own PNG codec: the encoder writes 8-bit RGB with filter 0 and zlib
/// stored blocks (the standard needs only CRC-32 and Adler-32 for that); the decoder reads
/// exactly that subset back, for the tests.
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
        var offset = 0
        repeat {
            let n = min(65535, raw.count - offset)
            let last: UInt8 = offset + n == raw.count ? 1 : 0
            zlib.append(last)
            zlib.append(UInt8(n & 0xFF))
            zlib.append(UInt8(n >> 8))
            zlib.append(UInt8(~n & 0xFF))
            zlib.append(UInt8((~n >> 8) & 0xFF))
            zlib.append(contentsOf: raw[offset..<(offset + n)])
            offset += n
        } while offset < raw.count
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
        var raw: [UInt8] = []
        var p = 2
        while p < idat.count - 4 {
            let final = idat[p] & 1
            guard idat[p] & 6 == 0 else { return nil }  // stored blocks only
            let n = Int(idat[p + 1]) | Int(idat[p + 2]) << 8
            p += 5
            guard p + n <= idat.count else { return nil }
            raw += idat[p..<(p + n)]
            p += n
            if final == 1 { break }
        }
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
    ]

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide.
    static func draw(_ text: String, at x: Int, _ y: Int, scale: Int, color: (UInt8, UInt8, UInt8), into image: inout RGBImage) {
        var cx = x
        for ch in text {
            let g = glyphs[ch] ?? glyphs[Character(ch.uppercased())] ?? glyphs["#"]!
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
