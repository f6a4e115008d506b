// The hit-map page in a real browser: headless Chromium driven over the DevTools protocol
// through --remote-debugging-pipe (file descriptors 3 and 4, NUL-separated JSON; no websocket,
// no packages). Run by scripts/browser-test.sh, which builds `hittest` and finds Chromium.
//
//   node scripts/browser-test.mjs --chromium PATH --hittest PATH --work DIR [--screenshot FILE]
//
// For each page (an imported real dump, the `app` sample, `app-large`): loads it from a file,
// moves the pointer to given points, reads the panel, and compares its trail with
// `hittest explain` at the very point the page used (so the page's answer is the engine's);
// checks pinning, the cost map and the audit highlight; measures the load and hover times on
// app-large (load under 1 s, hover under 16 ms) and prints them.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync, copyFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
for (const k of ["chromium", "hittest", "work"]) if (!args[k]) { console.error(`missing --${k}`); process.exit(2); }
const work = resolve(args.work), hittest = resolve(args.hittest);
const repo = resolve(new URL("..", import.meta.url).pathname);
let failures = 0;
function check(ok, what) {
  if (ok) console.log(`  ok: ${what}`);
  else { failures++; console.log(`  FAILED: ${what}`); }
}
function run(...a) { return execFileSync(hittest, a, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }); }

// ---- DevTools protocol over the pipe ----
class Browser {
  constructor(path) {
    this.profile = mkdtempSync(join(tmpdir(), "hittest-chromium-"));
    this.proc = spawn(path, [
      "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
      "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
      `--user-data-dir=${this.profile}`, "--window-size=1400,1000", "about:blank",
    ], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    this.stderr = "";
    this.proc.stderr.on("data", d => { this.stderr = (this.stderr + d).slice(-4000); });
    this.out = this.proc.stdio[3];
    this.next = 0;
    this.pending = new Map();
    this.waiters = [];
    let buf = Buffer.alloc(0);
    this.proc.stdio[4].on("data", chunk => {
      buf = Buffer.concat([buf, chunk]);
      let z;
      while ((z = buf.indexOf(0)) >= 0) {
        const msg = JSON.parse(buf.subarray(0, z).toString("utf8"));
        buf = buf.subarray(z + 1);
        if (msg.id !== undefined && this.pending.has(msg.id)) {
          const p = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`)); else p.resolve(msg.result);
        } else if (msg.method) {
          this.waiters = this.waiters.filter(w => !(w.method === msg.method && (w.resolve(msg.params), true)));
        }
      }
    });
    this.proc.on("exit", code => {
      for (const p of this.pending.values()) p.reject(new Error(`chromium exited (${code}): ${this.stderr}`));
      this.pending.clear();
    });
  }
  send(method, params = {}, sessionId) {
    const id = ++this.next;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.pending.delete(id); reject(new Error(`${method}: no answer in 60 s`)); }, 60000);
      this.pending.set(id, { method, resolve: v => { clearTimeout(timer); resolve(v); }, reject: e => { clearTimeout(timer); reject(e); } });
      this.out.write(JSON.stringify(msg) + "\0");
    });
  }
  async page() {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    return new Page(this, sessionId);
  }
  close() {
    try { this.proc.kill("SIGKILL"); } catch {}
    try { rmSync(this.profile, { recursive: true, force: true }); } catch {}
  }
}

class Page {
  constructor(browser, session) { this.b = browser; this.s = session; this.loads = 0; }
  send(method, params) { return this.b.send(method, params, this.s); }
  async eval(expression) {
    const r = await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  }
  /* Loads a file; resolves with the page's own setup time and the time from the request. */
  async open(file, hash = "zoom=1") {
    await this.send("Emulation.setDeviceMetricsOverride", { width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false });
    // A new URL each time (a fragment change alone would not reload), and a mark on the old
    // document so that its page object is not taken for the new one's.
    await this.eval("window.hitTestOld = true");
    const t0 = performance.now();
    await this.send("Page.navigate", { url: pathToFileURL(file).href + "?load=" + ++this.loads + "#" + hash });
    for (;;) {
      const ready = await this.eval("!window.hitTestOld && document.readyState === 'complete' && window.hitTestPage ? [hitTestPage.readyMs, hitTestPage.setupMs] : null");
      if (ready) return { sinceNavigation: ready[0], setup: ready[1], wall: performance.now() - t0 };
      if (performance.now() - t0 > 30000) throw new Error(`${file} did not load in 30 s`);
      await new Promise(r => setTimeout(r, 5));
    }
  }
  async mouse(type, x, y) {
    await this.send("Input.dispatchMouseEvent", { type, x, y, button: type === "mouseMoved" ? "none" : "left", clickCount: type === "mouseMoved" ? 0 : 1 });
  }
  /* Moves the pointer over screen point (sx, sy) of the map; returns the panel. */
  async hover(sx, sy) {
    const [cx, cy] = await this.eval(`hitTestPage.clientPoint(${sx}, ${sy})`);
    const t0 = performance.now();
    await this.mouse("mouseMoved", cx, cy);
    const roundTrip = performance.now() - t0;
    const panel = await this.eval(`(() => { const $ = id => document.getElementById(id); return {
      x: $("point").dataset.x, y: $("point").dataset.y, point: $("point").textContent, hit: $("hit").dataset.id,
      path: $("path").textContent, under: $("under").innerText, trail: $("trail").textContent }; })()`);
    panel.roundTrip = roundTrip;
    return panel;
  }
  async click(sx, sy) {
    const [cx, cy] = await this.eval(`hitTestPage.clientPoint(${sx}, ${sy})`);
    await this.mouse("mouseMoved", cx, cy);
    await this.mouse("mousePressed", cx, cy);
    await this.mouse("mouseReleased", cx, cy);
  }
}

/* The panel at (sx, sy) against `hittest explain` at the point the page reports it used. */
async function checkPoint(page, scene, sx, sy, expectHit) {
  const p = await page.hover(sx, sy);
  const explain = run("explain", scene, p.x, p.y).replace(/\n$/, "");
  const last = explain.split("\n").pop();
  const engineHit = /^=> (.*) \(\d+ views? tested\)$/.exec(last)[1];
  const same = p.trail === explain && (p.hit || "nothing") === engineHit;
  check(same, `(${sx}, ${sy}) -> page ${p.hit || "nothing"}, explain ${engineHit}${same ? "" : `\n--- page trail:\n${p.trail}\n--- hittest explain ${p.x} ${p.y}:\n${explain}`}`);
  if (expectHit !== undefined) check((p.hit || "nothing") === expectHit, `(${sx}, ${sy}) is ${expectHit}`);
  return p;
}

const browser = new Browser(args.chromium);
const timer = setTimeout(() => { console.log("FAILED: the browser test took over 5 minutes"); browser.close(); process.exit(1); }, 300000);
try {
  const page = await browser.page();
  await page.send("Page.enable");
  await page.send("Runtime.enable");

  // 1. A real dump: Adyen's issuer list (docs/cli.md's explain example).
  console.log("== an imported recursiveDescription (Adyen's issuer list)");
  const issuers = join(work, "issuers.json"), issuersPage = join(work, "issuers.html");
  run("import", join(repo, "Tests/Fixtures/snapshot-adyen-issuerlist-searchbar.txt"), "-o", issuers);
  run("render", issuers, "-o", issuersPage);
  await page.open(issuersPage);
  await checkPoint(page, issuers, 100, 128, "UIStackView-4");
  await checkPoint(page, issuers, 100, 75, "_UITextLayoutCanvasView-1");
  await checkPoint(page, issuers, 200, 500, "UITableView-1");
  for (const [x, y] of [[5, 5], [380, 30], [30, 230], [350, 300], [195, 1000], [389, 1103]]) await checkPoint(page, issuers, x, y);

  // 2. The app sample: hover answers, pinning, the views under the pointer, the cost map, the
  //    audit's findings, the screenshot.
  console.log("== the app sample (1,455 views)");
  const app = join(work, "app.json"), appPage = join(work, "app.html");
  run("render", "--sample", "app", "-o", appPage, "--save-scene", app);
  await page.open(appPage);
  for (let y = 12; y < 844; y += 67) for (const x of [22, 190, 352.5]) await checkPoint(page, app, x, y);
  const cellButton = await checkPoint(page, app, 352, 300, "cell-23-button");
  check(cellButton.path === "window › table › cell-23 › cell-23-content › cell-23-button", `ancestor path: ${cellButton.path}`);
  check(cellButton.under.includes("overlay: rejected: alpha 0.0 < 0.01"), "under the pointer: the invisible overlay, rejected for its alpha");
  await page.click(352, 300);
  const pinned = await page.hover(60, 500);
  check(pinned.hit === "cell-23-button" && pinned.point.includes("pinned"), "a click pins the panel (moving away keeps cell-23-button)");
  await page.click(60, 500);
  const unpinned = await page.hover(60, 520);
  check(unpinned.hit !== "cell-23-button" && !unpinned.point.includes("pinned"), `a second click unpins it (now ${unpinned.hit})`);
  const finding = await page.eval(`(() => { const d = document.querySelector("#findings div"); const r = d.getBoundingClientRect(); return [r.left + 20, r.top + r.height / 2, d.textContent]; })()`);
  await page.mouse("mouseMoved", finding[0], finding[1]);
  const outlined = await page.eval(`document.getElementById("hlFinding").getAttribute("points")`);
  check(outlined.length > 0, `hovering the finding "${finding[2]}" outlines its view`);
  await page.mouse("mouseMoved", 1, 1);
  await page.eval(`document.getElementById("costToggle").click()`);
  const costStart = performance.now();
  while (!(await page.eval("hitTestPage.costDone()"))) {
    if (performance.now() - costStart > 60000) throw new Error("the cost map did not finish in 60 s");
    await new Promise(r => setTimeout(r, 20));
  }
  const costMs = performance.now() - costStart;
  const cost = await page.eval(`[getComputedStyle(document.getElementById("cost")).display, document.getElementById("legendMax").textContent]`);
  check(cost[0] !== "none" && Number(cost[1]) > 100, `the toggle shows the cost map (at most ${cost[1]} views tested per touch; computed in ${costMs.toFixed(0)} ms)`);
  await checkPoint(page, app, 352, 300, "cell-23-button");
  await page.eval(`document.getElementById("costToggle").click()`);
  // The screenshot: pinned on a cell's title, which does not take touches.
  const title = await checkPoint(page, app, 150, 285, "cell-23-content");
  check(title.under.includes("cell-23-title: rejected: userInteractionEnabled is false"), "under the pointer: the title, not interactive");
  await page.click(150, 285);
  const shot = await page.send("Page.captureScreenshot", { format: "png" });
  const png = join(work, "hitmap-page.png");
  writeFileSync(png, Buffer.from(shot.data, "base64"));
  check(statSync(png).size > 20000, `screenshot ${png}`);
  if (args.screenshot) { copyFileSync(png, args.screenshot); console.log(`  wrote ${args.screenshot}`); }

  // 3. app-large: 10,000+ views. Load under a second, hover under 16 ms.
  console.log("== app-large (load and hover times)");
  const large = join(work, "large.json"), largePage = join(work, "large.html");
  run("render", "--sample", "app-large", "-o", largePage, "--save-scene", large);
  const views = await (async () => { await page.open(largePage); return page.eval("hitTestPage.model.n"); })();
  const loads = [];
  for (let k = 0; k < 3; k++) loads.push(await page.open(largePage));
  const bestLoad = loads.reduce((a, b) => (a.sinceNavigation < b.sinceNavigation ? a : b));
  for (const [x, y] of [[352, 300], [22, 12], [190, 800], [352, 760.5]]) await checkPoint(page, large, x, y);
  for (let k = 0; k < 5; k++) await page.hover(100 + k, 400 + k);  // warm-up
  await page.eval("hitTestPage.hoverTimes.length = 0");
  const trips = [];
  for (let k = 0; k < 60; k++) {
    const x = 3 + (k * 53.7) % 384, y = 5 + (k * 97.3) % 834;
    const [cx, cy] = await page.eval(`hitTestPage.clientPoint(${x}, ${y})`);
    const t0 = performance.now();
    await page.mouse("mouseMoved", cx, cy);
    trips.push(performance.now() - t0);
  }
  const handler = (await page.eval("hitTestPage.hoverTimes.slice()")).sort((a, b) => a - b);
  trips.sort((a, b) => a - b);
  const q = (a, f) => a[Math.min(a.length - 1, Math.floor(f * a.length))];
  const size = (statSync(largePage).size / 1e6).toFixed(1);
  console.log(`  app-large: ${views} views, page ${size} MB`);
  console.log(`  load (navigation start to map drawn, page's clock), 3 runs: ${loads.map(l => l.sinceNavigation.toFixed(0) + " ms").join(", ")}; of which data + model + map: ${loads.map(l => l.setup.toFixed(0) + " ms").join(", ")}; from the request: ${loads.map(l => l.wall.toFixed(0) + " ms").join(", ")}`);
  console.log(`  hover (the page's handler: walk, trail, views under the pointer, panel), ${handler.length} moves: median ${q(handler, 0.5).toFixed(2)} ms, 90% ${q(handler, 0.9).toFixed(2)} ms, max ${handler[handler.length - 1].toFixed(2)} ms`);
  console.log(`  hover (DevTools round trip of the mouse event, handler included): median ${q(trips, 0.5).toFixed(2)} ms, max ${trips[trips.length - 1].toFixed(2)} ms`);
  check(views >= 10000, `app-large has ${views} views`);
  check(handler.length === 60, "every move reached the page");
  check(bestLoad.sinceNavigation < 1000, `loads in under a second (best of 3: ${bestLoad.sinceNavigation.toFixed(0)} ms)`);
  check(q(handler, 0.9) < 16, `hovers answer in under 16 ms (90% within ${q(handler, 0.9).toFixed(2)} ms)`);
} catch (e) {
  failures++;
  console.log(`FAILED: ${e.stack || e}`);
} finally {
  clearTimeout(timer);
  browser.close();
}
console.log(failures ? `browser test: ${failures} FAILED` : "browser test: all passed");
process.exit(failures ? 1 : 0);
