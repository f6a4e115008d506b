extension HitTestCLI {
    /// The page's style, markup and scripts (see `HTMLPage`). `model` has no DOM code: it is
    /// UIKit's walk over the page's data and the `explain` trail in the CLI's words, and it is
    /// what the tests run in node against the C walk's trail (`HitTestTrace`).
    enum HTMLPageScript {
        static let style = #"""
        * { box-sizing: border-box; }
        html, body { margin: 0; height: 100%; font: 13px/1.35 -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1d1d1f; background: #f2f2f4; }
        #top { position: absolute; left: 0; right: 0; top: 0; height: 40px; display: flex; align-items: center; gap: 10px; padding: 0 12px; background: #1d1d28; color: #eee; }
        #top b { font-size: 14px; }
        #top button, #top label { font: inherit; color: #eee; background: #34344a; border: 1px solid #55556e; border-radius: 4px; padding: 2px 8px; cursor: pointer; }
        #top .info { color: #aab; margin-left: auto; }
        #mapbox { position: absolute; left: 0; top: 40px; bottom: 0; width: calc(100% - 600px); overflow: auto; background: #d8d8de; }
        #stage { position: absolute; left: 16px; top: 16px; cursor: crosshair; }
        #stage canvas { position: absolute; left: 0; top: 0; image-rendering: pixelated; }
        #stage svg { position: absolute; left: 0; top: 0; overflow: visible; pointer-events: none; }
        #side { position: absolute; right: 0; top: 40px; bottom: 0; width: 600px; overflow: auto; background: #fff; border-left: 1px solid #ccc; padding: 10px 12px; }
        #side h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: #666; margin: 12px 0 4px; }
        #panel.pinned { outline: 2px solid #e0a000; outline-offset: 4px; }
        #hit { font-size: 15px; font-weight: 600; }
        #hit .cls { font-weight: 400; color: #555; }
        .mono, pre { font: 11.5px/1.4 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
        pre { margin: 0; white-space: pre; overflow-x: auto; background: #f6f6f8; padding: 6px; border-radius: 4px; }
        #under div { padding: 1px 0; }
        #under .why { color: #a03030; }
        #findings div { padding: 2px 4px; cursor: default; border-radius: 3px; }
        #findings div:hover { background: #fff3c8; }
        .tag { display: inline-block; min-width: 78px; font-size: 11px; font-weight: 600; }
        .tag.small { color: #b36b00; } .tag.occluded { color: #a03030; } .tag.unreachable { color: #6040a0; }
        #legend { display: none; align-items: center; gap: 6px; }
        #legend canvas { width: 120px; height: 10px; border: 1px solid #888; }
        #hint { color: #777; }
        """#

        static let body = #"""
        <div id="top"><b>hit map</b><span>@TITLE@</span>
        <button id="zoomOut" title="zoom out (-)">&minus;</button><span id="zoomText">100%</span><button id="zoomIn" title="zoom in (+)">+</button><button id="zoomFit">fit</button>
        <label><input type="checkbox" id="costToggle"> cost map</label>
        <span id="legend"><span>0</span><canvas id="legendBar" width="120" height="1"></canvas><span id="legendMax"></span><span>views tested per touch</span></span>
        <span class="info" id="info"></span></div>
        <div id="mapbox"><div id="stage"><canvas id="map"></canvas><canvas id="cost" style="display:none"></canvas>
        <svg id="overlay"><polygon id="hl" fill="rgba(255,255,255,0.25)" stroke="#000" stroke-width="2" vector-effect="non-scaling-stroke" points=""/><polygon id="hlFinding" fill="rgba(255,200,0,0.35)" stroke="#e07000" stroke-width="3" vector-effect="non-scaling-stroke" points=""/><path id="cross" stroke="#fff" stroke-width="1" vector-effect="non-scaling-stroke" d=""/></svg></div></div>
        <div id="side"><div id="panel"><div id="hint">Point at the map: the view a touch there reaches, and why. Click pins the panel.</div>
        <div class="mono" id="point"></div><div id="hit"></div><div class="mono" id="frame"></div>
        <h2>ancestor path</h2><div class="mono" id="path"></div>
        <h2>under the pointer, not hit (front to back)</h2><div class="mono" id="under"></div>
        <h2>UIKit's walk (hittest explain)</h2><pre id="trail"></pre></div>
        <h2>audit findings</h2><div id="auditSummary"></div><div id="findings"></div></div>
        """#

        static let model = #"""
        "use strict";
        /* UIKit's hit-test walk over the page's data, so that the page answers without a server:
           the rules of the C walk and its arithmetic, operation for operation (doubles in the
           same order; no recursion), its trail in explain's words. The tests hold its answers,
           trails and costs to the C walk's (HitTestTrace) on many points of many scenes. */
        function HitTestModel(D) {
          const n = D.ids.length;
          const num = v => typeof v === "number" ? v : v === "nan" ? NaN : v === "inf" ? Infinity : -Infinity;
          const F = a => { const t = new Float64Array(a.length); for (let i = 0; i < a.length; i++) t[i] = num(a[i]); return t; };
          const center = F(D.center), off = F(D.off), m = F(D.m), region = F(D.region), frame = F(D.frame), sbox = F(D.subtreeBox);
          const flags = Int32Array.from(D.flags), unusable = Int32Array.from(D.unusable), cls = Int32Array.from(D.cls);
          const childStart = Int32Array.from(D.childStart), children = Int32Array.from(D.children);
          const parent = new Int32Array(n).fill(-1);
          for (let i = 0; i < n; i++) for (let k = childStart[i]; k < childStart[i + 1]; k++) parent[children[k]] = i;
          const ids = D.ids, reasons = D.reasons, classTable = D.classTable;
          const USABLE = 1, OUTSIDE = 2, CAPTURES = 4, PASSES = 8, IDENTITY = 16, INSETS = 32;

          function count(k, word) { return k + " " + (k === 1 ? word : word + "s"); }
          /* Swift's String(format: "%.3f") (glibc: exact ties to even), trailing zeros dropped. */
          function short(x) {
            if (x !== x) return "nan";
            if (x === Infinity) return "inf";
            if (x === -Infinity) return "-inf";
            const a = Math.abs(x);
            let s = a < 1e21 ? a.toFixed(3) : a.toString();
            const q = a * 16;
            if (a < 1e15 && Number.isInteger(q) && q % 2 === 1) {
              /* an exact tie at the third decimal: toFixed rounds up, glibc to even */
              const last = s.charCodeAt(s.length - 1) - 48;
              if (last % 2 === 1) s = s.slice(0, -1) + String.fromCharCode(48 + last - 1);
            }
            if (x < 0) s = "-" + s;
            if (s.indexOf(".") >= 0) { s = s.replace(/0+$/, ""); if (s.endsWith(".")) s = s.slice(0, -1); }
            return s === "-0" ? "0" : s;
          }
          /* The CLI's fmt: whole numbers plainly, others with at most four decimals. */
          function fmt(x) {
            if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x === 0 ? 0 : x);
            if (!isFinite(x) || Math.abs(x) >= 1e15) return String(x);
            let s = x.toFixed(4).replace(/0+$/, "");
            if (s.endsWith(".")) s = s.slice(0, -1);
            return s === "-0" ? "0" : s;
          }

          let cvx = 0, cvy = 0;
          /* The point in view i's bounds space, from its superview's (the root's: from the
             screen's): LevelConversion.fromSuperview, the C walk's to_local. */
          function convert(i, x, y) {
            const qx = x - center[2 * i], qy = y - center[2 * i + 1], b = 6 * i;
            if (flags[i] & IDENTITY) { cvx = qx + off[2 * i]; cvy = qy + off[2 * i + 1]; return; }
            cvx = (m[b] * qx + m[b + 2] * qy + m[b + 4]) + off[2 * i];
            cvy = (m[b + 1] * qx + m[b + 3] * qy + m[b + 5]) + off[2 * i + 1];
          }
          /* A screen point in the root's bounds space (Screen.toRoot). */
          function toRoot(sx, sy) { convert(0, sx, sy); return [cvx, cvy]; }
          function inside(i, x, y) {
            const r = 4 * i;
            return x >= region[r] && x < region[r + 2] && y >= region[r + 1] && y < region[r + 3];
          }

          let cap = 64;
          let sV = new Int32Array(cap), sN = new Int32Array(cap), sI = new Uint8Array(cap);
          let sX = new Float64Array(cap), sY = new Float64Array(cap);
          function grow() {
            cap *= 2;
            const v = new Int32Array(cap); v.set(sV); sV = v;
            const k = new Int32Array(cap); k.set(sN); sN = k;
            const f = new Uint8Array(cap); f.set(sI); sI = f;
            const x = new Float64Array(cap); x.set(sX); sX = x;
            const y = new Float64Array(cap); y.set(sY); sY = y;
          }

          /* UIKit's walk for a point in the root's bounds space: {hit (index or -1), visits};
             record(depth, view, x, y, verdict) gets every decision, as the C trail's steps. */
          function walk(x, y, record) {
            let sp = 0, visits = 0;
            function enter(i, x, y, depth) {
              visits++;
              const f = flags[i];
              if (!(f & USABLE)) { if (record) record(depth, i, x, y, reasons[unusable[i]]); return; }
              const ins = inside(i, x, y);
              const how = (f & INSETS) ? "bounds with hitTestInsets" : "bounds";
              if (!ins && !(f & OUTSIDE)) { if (record) record(depth, i, x, y, "rejected: outside (" + how + ")"); return; }
              const k = childStart[i + 1] - childStart[i];
              if (sp === cap) grow();
              sV[sp] = i; sX[sp] = x; sY[sp] = y; sI[sp] = ins ? 1 : 0;
              if (f & CAPTURES) {
                if (record) record(depth, i, x, y, ins ? "inside; capturesSubviewTouches: subviews not searched" : "outside");
                sN[sp] = k;
              } else {
                if (record) record(depth, i, x, y, (ins ? "inside (" + how + ")" : "outside, but allowsSubviewHitsOutsideBounds")
                  + (k === 0 ? "; no subviews" : "; searching " + count(k, "subview") + ", last first"));
                sN[sp] = 0;
              }
              sp++;
            }
            enter(0, x, y, 0);
            while (sp > 0) {
              const t = sp - 1, i = sV[t], next = sN[t];
              if (next < childStart[i + 1] - childStart[i]) {
                sN[t] = next + 1;
                const c = children[childStart[i] + next];
                convert(c, sX[t], sY[t]);
                enter(c, cvx, cvy, sp);
                continue;
              }
              sp--;
              if (sI[t] && !(flags[i] & PASSES)) {
                if (record) record(sp, i, sX[t], sY[t], "hit: no subview took the point");
                return { hit: i, visits: visits };
              }
              if (record) record(sp, i, sX[t], sY[t], sI[t] ? "nil: passesTouchesThrough" : "nil: no subview took the point");
            }
            return { hit: -1, visits: visits };
          }

          function name(i) { return ids[i]; }
          function className(i) { return classTable[cls[i]]; }

          /* The explain command's text for a screen point: its trail (Explain.summarise) and
             the closing line. */
          /* maxLines (optional): the first and last maxLines / 2 lines, and a line saying how
             many are left out between them (a 100,000-deep tree has 200,000). */
          function explain(sx, sy, maxLines) {
            const p = toRoot(sx, sy);
            const depth = [], view = [], xs = [], ys = [], verdict = [];
            const r = walk(p[0], p[1], (d, i, x, y, v) => { depth.push(d); view.push(i); xs.push(x); ys.push(y); verdict.push(v); });
            const indent = d => "  ".repeat(Math.min(d, 32)) + (d > 32 ? "[depth " + d + "] " : "");
            /* the runs first (a run of more than 5 siblings rejected alike is one line) */
            const runs = [];
            let total = 0, k = 0;
            while (k < depth.length) {
              let e = k + 1;
              if (verdict[k].startsWith("rejected")) while (e < depth.length && depth[e] === depth[k] && verdict[e] === verdict[k]) e++;
              runs.push(k, e);
              total += e - k > 5 ? 1 : e - k;
              k = e;
            }
            const keep = maxLines && total > maxLines ? Math.floor(maxLines / 2) : Infinity;
            const lines = [];
            let at = 0, gap = -1, omitted = 0;
            for (let q = 0; q < runs.length; q += 2) {
              const k = runs[q], e = runs[q + 1];
              const size = e - k > 5 ? 1 : e - k;
              if (at + size <= keep || at >= total - keep) {
                if (e - k > 5) {
                  lines.push(indent(depth[k]) + count(e - k, "view") + " (" + name(view[k]) + " ... " + name(view[e - 1]) + "): " + verdict[k]);
                } else {
                  for (let j = k; j < e; j++) lines.push(indent(depth[j]) + name(view[j]) + " at (" + short(xs[j]) + ", " + short(ys[j]) + "): " + verdict[j]);
                }
              } else {
                if (gap < 0) { gap = lines.length; lines.push(""); }
                omitted += size;
              }
              at += size;
            }
            if (gap >= 0) lines[gap] = "... " + omitted + " lines left out (hittest explain prints them all) ...";
            lines.push("=> " + (r.hit >= 0 ? name(r.hit) : "nothing") + " (" + count(r.visits, "view") + " tested)");
            const last = new Map();
            for (let j = 0; j < view.length; j++) last.set(view[j], verdict[j]);
            return { hit: r.hit, visits: r.visits, lines: lines, verdicts: last, root: p };
          }

          /* The hit view's ancestors, root first. */
          function path(i) {
            const out = [];
            for (let a = i; a >= 0; a = parent[a]) out.push(a);
            return out.reverse();
          }

          /* The views whose touch region (bounds with hitTestInsets) holds the point and that
             did not get the touch, front to back (the walk's search order), each with the rule
             that kept the touch from it: its own verdict when the walk tested it, otherwise what
             stopped the walk above it (an ancestor rejected or capturing, or a view in front that
             took the touch first). */
          function under(e, sx, sy, limit) {
            const hit = e.hit, verdicts = e.verdicts;
            const onPath = new Set(hit >= 0 ? path(hit) : []);
            const out = [];
            let total = 0;
            /* an explicit stack: (view, x, y, inherited reason, children pushed?) */
            const st = [[0, e.root[0], e.root[1], null, false]];
            while (st.length) {
              const top = st[st.length - 1];
              const i = top[0];
              if (top[4]) {
                st.pop();
                if (!onPath.has(i) && inside(i, top[1], top[2])) {
                  const v = verdicts.get(i);
                  const why = v !== undefined ? v : top[3];
                  if (why !== null) { total++; if (out.length < limit) out.push([i, why]); }
                }
                continue;
              }
              top[4] = true;
              const v = verdicts.get(i);
              let childWhy = top[3];
              let pathChild = -1;
              if (v !== undefined) {
                if (v.startsWith("rejected")) childWhy = "in " + name(i) + ", " + v;
                else if (flags[i] & CAPTURES) childWhy = name(i) + " captures its subviews' touches";
                else if (onPath.has(i)) {
                  for (let k = childStart[i]; k < childStart[i + 1]; k++) if (onPath.has(children[k])) pathChild = children[k];
                  childWhy = "covered by " + name(hit) + (pathChild >= 0 && pathChild !== hit ? " (in " + name(pathChild) + ")" : "");
                } else childWhy = null;
              }
              /* children in reverse search order onto the stack, so the first searched is popped first */
              for (let k = childStart[i + 1] - 1; k >= childStart[i]; k--) {
                const c = children[k], b = 4 * c;
                if (!(sx >= sbox[b] && sx <= sbox[b + 2] && sy >= sbox[b + 1] && sy <= sbox[b + 3])) continue;
                convert(c, top[1], top[2]);
                st.push([c, cvx, cvy, childWhy, false]);
              }
            }
            return { list: out, total: total };
          }

          /* Everything the page shows for a screen point, as text. */
          function answer(sx, sy, maxLines) {
            const e = explain(sx, sy, maxLines);
            const u = under(e, sx, sy, 200);
            let ancestors = e.hit >= 0 ? path(e.hit) : [];
            if (maxLines && ancestors.length > maxLines) {
              const h = Math.floor(maxLines / 2);
              ancestors = ancestors.slice(0, h).map(name).concat(["... " + (ancestors.length - 2 * h) + " more ..."], ancestors.slice(-h).map(name));
            } else ancestors = ancestors.map(name);
            return {
              hit: e.hit >= 0 ? name(e.hit) : null,
              className: e.hit >= 0 ? className(e.hit) : "",
              frame: e.hit >= 0 ? frameText(e.hit) : "",
              path: ancestors,
              under: u.list.map(x => name(x[0]) + ": " + x[1]),
              underTotal: u.total,
              trail: e.lines.join("\n"),
              visits: e.visits,
              index: e.hit
            };
          }
          function frameText(i) {
            const b = 4 * i;
            return "(" + fmt(frame[b]) + ", " + fmt(frame[b + 1]) + ", " + fmt(frame[b + 2]) + ", " + fmt(frame[b + 3]) + ")";
          }
          /* The view's outline on the screen: 4 corners. */
          function quad(i) {
            const q = D.quads[i];
            if (q) return q.map(num);
            const b = 4 * i, x0 = frame[b], y0 = frame[b + 1], x1 = x0 + frame[b + 2], y1 = y0 + frame[b + 3];
            return [x0, y0, x1, y0, x1, y1, x0, y1];
          }
          /* Views tested for a touch at each pixel centre of a w x h raster at `scale` from
             `origin` (render --cost's numbers), rows [from, to). */
          function costRows(costs, w, scale, ox, oy, from, to) {
            let max = 0;
            for (let py = from; py < to; py++) {
              for (let px = 0; px < w; px++) {
                const p = toRoot(ox + (px + 0.5) / scale, oy + (py + 0.5) / scale);
                const c = walk(p[0], p[1], null).visits;
                costs[py * w + px] = c;
                if (c > max) max = c;
              }
            }
            return max;
          }
          /* The engine's answer at map pixel (px, py), from the runs: view index or -1. */
          function mapRows() {
            const M = D.map, rows = new Array(M.height);
            let k = 0;
            for (let y = 0; y < M.height; y++) { rows[y] = k; k += 2 * M.rowRuns[y]; }
            return rows;
          }
          return { n, ids, parent, walk, explain, under, answer, toRoot, short, fmt, quad, costRows, mapRows, name, className, frameText, path };
        }
        if (typeof module !== "undefined") module.exports = { HitTestModel };
        """#

        static let ui = #"""
        "use strict";
        (function () {
          const t0 = performance.now();
          const D = JSON.parse(document.getElementById("hittest-data").textContent);
          const M = HitTestModel(D);
          const map = D.map, W = map.width, H = map.height, S = map.scale, OX = map.origin[0], OY = map.origin[1];
          const wPt = W / S, hPt = H / S;
          const $ = id => document.getElementById(id);
          const stage = $("stage"), canvas = $("map"), costCanvas = $("cost"), svg = $("overlay");
          let zoom = 1, pinned = false, costShown = false, costState = null;

          /* The map: a colour per view by first appearance (render's palette), outlines where the
             answer changes, dark grey for nothing. */
          function color(index) {
            const h = (index * 0.61803398875) % 1, s = 0.55, v = 0.95;
            const i = Math.trunc(h * 6), f = h * 6 - i;
            const p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
            const c = [[v, t, p], [q, v, p], [p, v, t], [p, q, v], [t, p, v], [v, p, q]][i % 6];
            return [Math.trunc(c[0] * 255), Math.trunc(c[1] * 255), Math.trunc(c[2] * 255)];
          }
          function drawMap() {
            canvas.width = W; canvas.height = H;
            const ctx = canvas.getContext("2d");
            const img = ctx.createImageData(W, H), px = img.data;
            const hits = new Int32Array(W * H);
            let k = 0;
            for (let y = 0; y < H; y++) {
              let x = 0;
              for (let r = 0; r < map.rowRuns[y]; r++) {
                const v = map.runs[k++] - 1, len = map.runs[k++];
                hits.fill(v, y * W + x, y * W + x + len);
                x += len;
              }
            }
            const palette = new Map();
            for (let i = 0; i < W * H; i++) {
              const v = hits[i];
              if (v >= 0 && !palette.has(v)) palette.set(v, color(palette.size));
            }
            for (let y = 0; y < H; y++) {
              for (let x = 0; x < W; x++) {
                const i = y * W + x, v = hits[i];
                const right = x + 1 < W ? hits[i + 1] : v, below = y + 1 < H ? hits[i + W] : v;
                let c;
                if (right !== v || below !== v) c = [0, 0, 0]; else c = v >= 0 ? palette.get(v) : [40, 40, 40];
                px[4 * i] = c[0]; px[4 * i + 1] = c[1]; px[4 * i + 2] = c[2]; px[4 * i + 3] = 255;
              }
            }
            ctx.putImageData(img, 0, 0);
          }

          function heat(t) {
            const stops = [[20, 20, 80], [200, 30, 40], [250, 210, 40], [255, 255, 255]];
            const x = Math.max(0, Math.min(1, t)) * (stops.length - 1);
            const i = Math.min(Math.trunc(x), stops.length - 2), f = x - i, a = stops[i], b = stops[i + 1];
            return [Math.trunc(a[0] + (b[0] - a[0]) * f), Math.trunc(a[1] + (b[1] - a[1]) * f), Math.trunc(a[2] + (b[2] - a[2]) * f)];
          }
          /* The cost map, computed here in slices (it is the walk at every pixel centre: render
             --cost's numbers), at the map's raster or coarser (at most 350,000 pixels). */
          function startCost() {
            if (costState) return;
            let cs = S;
            if (W * H > 350000) cs = S * Math.sqrt(350000 / (W * H));
            const cw = Math.max(1, Math.round(wPt * cs)), ch = Math.max(1, Math.round(hPt * cs));
            costState = { w: cw, h: ch, scale: cs, costs: new Int32Array(cw * ch), row: 0, max: 1, done: false };
            costCanvas.width = cw; costCanvas.height = ch;
            const slice = () => {
              const st = costState, end = performance.now() + 12;
              while (st.row < st.h && performance.now() < end) {
                const to = Math.min(st.h, st.row + 4);
                st.max = Math.max(st.max, M.costRows(st.costs, st.w, st.scale, OX, OY, st.row, to));
                st.row = to;
              }
              $("info").textContent = st.row < st.h ? "cost map: " + Math.round(100 * st.row / st.h) + "%" : info;
              if (st.row < st.h) { setTimeout(slice, 0); return; }
              st.done = true;
              const ctx = costCanvas.getContext("2d"), img = ctx.createImageData(st.w, st.h);
              for (let i = 0; i < st.w * st.h; i++) {
                const c = heat(st.costs[i] / st.max);
                img.data[4 * i] = c[0]; img.data[4 * i + 1] = c[1]; img.data[4 * i + 2] = c[2]; img.data[4 * i + 3] = 255;
              }
              ctx.putImageData(img, 0, 0);
              $("legendMax").textContent = String(st.max);
            };
            setTimeout(slice, 0);
          }
          function showCost(on) {
            costShown = on;
            $("costToggle").checked = on;
            costCanvas.style.display = on ? "" : "none";
            canvas.style.display = on ? "none" : "";
            $("legend").style.display = on ? "flex" : "none";
            if (on) startCost();
          }
          const bar = $("legendBar").getContext("2d");
          for (let x = 0; x < 120; x++) { const c = heat(x / 119); bar.fillStyle = "rgb(" + c + ")"; bar.fillRect(x, 0, 1, 1); }

          function setZoom(z) {
            zoom = Math.max(0.05, Math.min(64, z));
            const w = wPt * zoom, h = hPt * zoom;
            for (const el of [canvas, costCanvas]) { el.style.width = w + "px"; el.style.height = h + "px"; }
            stage.style.width = w + "px"; stage.style.height = h + "px";
            svg.setAttribute("width", w); svg.setAttribute("height", h);
            svg.setAttribute("viewBox", OX + " " + OY + " " + wPt + " " + hPt);
            svg.setAttribute("preserveAspectRatio", "none");
            $("zoomText").textContent = Math.round(zoom * 100) + "%";
          }
          function fit() {
            const box = $("mapbox");
            setZoom(Math.min((box.clientWidth - 32) / wPt, (box.clientHeight - 32) / hPt));
          }

          function points(q) { return q[0] + "," + q[1] + " " + q[2] + "," + q[3] + " " + q[4] + "," + q[5] + " " + q[6] + "," + q[7]; }
          function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
          function line(parent, text, cls) { const d = document.createElement("div"); d.textContent = text; if (cls) d.className = cls; parent.appendChild(d); return d; }

          /* The panel for a screen point. */
          function show(sx, sy) {
            const a = M.answer(sx, sy, 2000);
            const p = $("point");
            p.textContent = "touch at (" + M.short(sx) + ", " + M.short(sy) + ") on the screen · " + a.visits + " views tested" + (pinned ? " · pinned (click to unpin)" : "");
            p.dataset.x = String(sx); p.dataset.y = String(sy);
            const hit = $("hit");
            clear(hit);
            hit.appendChild(document.createTextNode(a.hit === null ? "nothing is hit" : a.hit + " "));
            if (a.className) { const s = document.createElement("span"); s.className = "cls"; s.textContent = a.className; hit.appendChild(s); }
            hit.dataset.id = a.hit === null ? "" : a.hit;
            $("frame").textContent = a.hit === null ? "" : "frame on the screen " + a.frame;
            $("path").textContent = a.path.join(" › ");
            const u = $("under");
            clear(u);
            for (const s of a.under) {
              const k = s.indexOf(": ");
              const d = line(u, s.slice(0, k + 1) + " ");
              const w = document.createElement("span"); w.className = "why"; w.textContent = s.slice(k + 2); d.appendChild(w);
            }
            if (a.underTotal > a.under.length) line(u, "... and " + (a.underTotal - a.under.length) + " more");
            if (a.underTotal === 0) line(u, "(none)");
            $("trail").textContent = a.trail;
            $("hl").setAttribute("points", a.index >= 0 ? points(M.quad(a.index)) : "");
            const c = 6 / zoom;
            $("cross").setAttribute("d", "M" + (sx - c) + " " + sy + "H" + (sx + c) + "M" + sx + " " + (sy - c) + "V" + (sy + c));
            $("hint").style.display = "none";
            return a;
          }
          function screenPoint(ev) {
            const r = stage.getBoundingClientRect();
            return [OX + (ev.clientX - r.left) / zoom, OY + (ev.clientY - r.top) / zoom];
          }
          let lastHover = 0;
          stage.addEventListener("mousemove", ev => {
            if (pinned) return;
            const h0 = performance.now();
            const p = screenPoint(ev);
            show(p[0], p[1]);
            void $("side").offsetHeight;  /* style and layout of the new panel, in the measured time */
            lastHover = performance.now() - h0;
            window.hitTestPage.hoverTimes.push(lastHover);
          });
          stage.addEventListener("click", ev => {
            pinned = !pinned;
            $("panel").classList.toggle("pinned", pinned);
            const p = screenPoint(ev);
            show(p[0], p[1]);
          });

          /* The audit's findings; hovering one outlines its view. */
          $("auditSummary").textContent = D.audit.summary;
          const list = $("findings");
          for (const f of D.audit.findings) {
            const d = document.createElement("div");
            const t = document.createElement("span"); t.className = "tag " + f[0]; t.textContent = f[0]; d.appendChild(t);
            d.appendChild(document.createTextNode(" " + f[2]));
            d.addEventListener("mouseenter", () => { $("hlFinding").setAttribute("points", f[1] >= 0 ? points(M.quad(f[1])) : ""); });
            d.addEventListener("mouseleave", () => { $("hlFinding").setAttribute("points", ""); });
            list.appendChild(d);
          }
          if (!D.audit.findings.length) line(list, "none");

          $("zoomIn").onclick = () => setZoom(zoom * 1.25);
          $("zoomOut").onclick = () => setZoom(zoom / 1.25);
          $("zoomFit").onclick = fit;
          $("costToggle").onchange = ev => showCost(ev.target.checked);
          document.addEventListener("keydown", ev => {
            if (ev.key === "+" || ev.key === "=") setZoom(zoom * 1.25);
            else if (ev.key === "-") setZoom(zoom / 1.25);
            else if (ev.key === "c") showCost(!costShown);
          });
          $("mapbox").addEventListener("wheel", ev => { if (ev.ctrlKey) { ev.preventDefault(); setZoom(zoom * (ev.deltaY < 0 ? 1.1 : 1 / 1.1)); } }, { passive: false });

          drawMap();
          const info = M.n + " views · " + W + "x" + H + " px map (" + M.fmt(S) + " px/pt)";
          $("info").textContent = info;
          const hash = new URLSearchParams(location.hash.slice(1));
          if (hash.has("zoom")) setZoom(Number(hash.get("zoom"))); else {
            setZoom(1);
            const box = $("mapbox");
            if (hPt > box.clientHeight - 32 || wPt > box.clientWidth - 32) fit();
          }
          if (document.body.dataset.cost === "1" || hash.get("cost") === "1") showCost(true);
          const ready = performance.now();
          /* For tests and scripts: the model, the panel for a point, where a screen point is in
             the viewport, and timings. */
          window.hitTestPage = {
            model: M, show: show, setZoom: setZoom, showCost: showCost,
            costDone: () => costState !== null && costState.done,
            clientPoint: (sx, sy) => { const r = stage.getBoundingClientRect(); return [r.left + (sx - OX) * zoom, r.top + (sy - OY) * zoom]; },
            setupMs: ready - t0, readyMs: ready, hoverTimes: []
          };
        })();
        """#
    }
}
