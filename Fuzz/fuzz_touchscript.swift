// (Compiled into the HitTestInput module with its sources, on HitTestCore.)
import HitTestCore

// fuzz_touchscript.swift - libFuzzer harness for the touch-script reader and the replay it feeds.
//
// Compiled into one module with HitTestInput's sources, on the HitTestCore module. Any bytes
// must read as a script or be refused with a TouchScriptError naming a line, never crash; the
// whole-text reader and the line-at-a-time one (fed in chunks of a size the input picks) must
// agree exactly; a script that reads must survive its CSV round trip and replay against a small
// app (views side by side, a tap recognizer, a scroll view) without a trap, whatever its times
// and touches.
//
//   scripts/fuzz.sh touchscript 60

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTouchScriptInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let whole = Result { () throws(TouchScriptError) in try TouchScript(csv: text) }

    // The same text line by line, in chunks of 1...16 bytes (the first byte picks the size).
    let chunk = size > 0 ? Int(bytes[0] % 16) + 1 : 1
    let utf8 = Array(text.utf8)
    var reader = TextLineReader()
    var parser = TouchScript.Parser()
    var entries: [TouchScript.Entry] = []
    var failure: TouchScriptError?
    var start = 0
    func read(_ line: UnsafeRawBufferPointer, _ number: Int) {
        guard failure == nil else { return }
        do throws(TouchScriptError) {
            try parser.read(String(decoding: line, as: UTF8.self), number: number, into: &entries)
        } catch { failure = error }
    }
    while start < utf8.count {
        let end = min(start + chunk, utf8.count)
        utf8[start..<end].withUnsafeBytes { reader.feed($0, read) }
        start = end
    }
    reader.finish(read)
    if failure == nil { parser.finish(into: &entries) }

    switch whole {
    case .failure(let error):
        guard failure == error else { fatalError("the two readers disagree: \(error) vs \(String(describing: failure))") }
        return 0
    case .success(let script):
        guard failure == nil, script.entries == entries else { fatalError("the two readers disagree on a valid script") }
        guard let again = try? TouchScript(csv: script.csv), again == script else { fatalError("CSV round trip") }
        replay(script)
    }
    return 0
}

/// Replays a bounded prefix of `script` against a small app with a tap recognizer and a
/// scroll view (the script's times and points are whatever the input says).
private func replay(_ script: TouchScript) {
    let app = Application()
    let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    app.addWindow(window)
    let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 320, height: 400))
    scroll.contentSize = Size(width: 320, height: 4000)
    window.addSubview(scroll)
    for i in 0..<8 {
        let cell = View(frame: Rect(x: 0, y: Double(i) * 50, width: 320, height: 50))
        cell.isMultipleTouchEnabled = i % 2 == 0
        cell.isExclusiveTouch = i == 3
        if i % 3 == 0 { cell.addGestureRecognizer(TapGestureRecognizer()) }
        scroll.addSubview(cell)
    }
    let button = Button(frame: Rect(x: 0, y: 400, width: 320, height: 80))
    window.addSubview(button)
    var steps = 0
    var bounded = TouchScript(entries: [])
    for entry in script.entries {
        if case .touches(let changes) = entry { steps += changes.count }
        if steps > 2000 { break }
        bounded.entries.append(entry)
    }
    _ = app.replay(bounded)
    app.clearDeliveryLog()
}
