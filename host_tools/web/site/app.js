// The handheld in a browser: the MicroPython WebAssembly port runs the unchanged
// firmware (firmware/*.py with the browser backend hw_web.py); this file is its
// clock, screen, buttons, buzzer and storage.  docs/web.md describes it.
// Text from outside (a level pack, a URL parameter, an error) reaches the page
// only through textContent, never as HTML.
import { loadMicroPython } from "./micropython.mjs";
import { parseKeys } from "./keyscript.mjs";   // the key script of `sim --keys` (host_tools/core/keyscript.py)

const WIDTH = 128, HEIGHT = 64;
const TICK_MS = 1000 / 30;
const TAP_TICKS = 2;                      // a key tapped between ticks stays down this long
const INK = [0x9f, 0xe6, 0xff];           // the OLED's pixel colour (lit), on black
const SAVE_KEY = "pocket-puzzles/saves/"; // localStorage key prefix, one item per save file
const KEY_BITS = { ArrowUp: 1, ArrowDown: 2, ArrowLeft: 4, ArrowRight: 8,
                   z: 16, Z: 16, a: 16, A: 16, Enter: 16, " ": 16,
                   x: 32, X: 32, b: 32, B: 32, Backspace: 32 };

const params = new URLSearchParams(location.search);
const statusLine = document.getElementById("status");
const canvas = document.getElementById("screen");
const paint = canvas.getContext("2d");
const image = paint.createImageData(WIDTH, HEIGHT);

// What tests and the bench read (window.pocket): state, timings, last frame, the key parser.
const pocket = window.pocket = { ready: false, done: false, error: "", frame: "", final: "", game: "",
                                 ticks: 0, tickMs: [], loadMs: 0, pack: null, violations: [], parseKeys };
document.addEventListener("securitypolicyviolation", (e) => pocket.violations.push(e.violatedDirective));

function say(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

// -- screen ---------------------------------------------------------------------------------
function draw(hex) {
  const px = image.data;
  for (let page = 0; page < HEIGHT / 8; page++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (page * WIDTH + x) * 2;
      const byte = parseInt(hex.substr(i, 2), 16);
      for (let bit = 0; bit < 8; bit++) {
        const o = ((page * 8 + bit) * WIDTH + x) * 4;
        const on = (byte >> bit) & 1;
        px[o] = on ? INK[0] : 0; px[o + 1] = on ? INK[1] : 0; px[o + 2] = on ? INK[2] : 0; px[o + 3] = 255;
      }
    }
  }
  paint.putImageData(image, 0, 0);
  pocket.frame = hex;
}

function fitScreen() {   // crisp: a whole number of device pixels per OLED pixel
  const ratio = window.devicePixelRatio || 1;
  const room = Math.min(document.documentElement.clientWidth - 44, 512) * ratio;
  const scale = Math.max(1, Math.floor(room / WIDTH));
  canvas.style.width = WIDTH * scale / ratio + "px";
  canvas.style.height = HEIGHT * scale / ratio + "px";
}

// -- buzzer ---------------------------------------------------------------------------------
let audio = null;
function beep(freq, ms) {
  if (!audio) return;                     // browsers allow sound only after a key or touch
  const osc = audio.createOscillator(), gain = audio.createGain();
  osc.type = "square";
  osc.frequency.value = freq;
  gain.gain.value = 0.05;
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + ms / 1000);
}
function wakeAudio() {
  if (!audio && window.AudioContext) audio = new AudioContext();
}

// -- buttons: keyboard and touch ------------------------------------------------------------
let held = 0;                             // bits down now
const tapped = new Array(6).fill(-1);    // tick until which a tapped key counts as down
let tickNo = 0;
function press(bits) {
  wakeAudio();
  held |= bits;
  for (let i = 0; i < 6; i++) if (bits & (1 << i)) tapped[i] = tickNo + TAP_TICKS;
}
function release(bits) { held &= ~bits; }
function buttonMask() {
  let mask = held;
  for (let i = 0; i < 6; i++) if (tapped[i] > tickNo) mask |= 1 << i;
  return mask;
}
addEventListener("keydown", (e) => {
  const bits = KEY_BITS[e.key];
  if (bits === undefined || e.ctrlKey || e.metaKey || e.altKey || e.target.tagName === "INPUT") return;
  e.preventDefault();
  if (!e.repeat) press(bits);
});
addEventListener("keyup", (e) => { const bits = KEY_BITS[e.key]; if (bits !== undefined) release(bits); });
addEventListener("blur", () => { held = 0; });
for (const button of document.querySelectorAll("#pad button")) {
  const bits = 1 << Number(button.dataset.key);
  button.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    button.setPointerCapture(e.pointerId);
    button.classList.add("down-now");
    press(bits);
  });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
    button.addEventListener(type, () => { button.classList.remove("down-now"); release(bits); });
  }
  button.addEventListener("contextmenu", (e) => e.preventDefault());
}

// -- saves: the /saves folder of the port's file system, mirrored in localStorage -------------
function toBase64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
  return btoa(text);
}
function fromBase64(text) {
  const raw = atob(text), bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
// a game's records (ID.sav ...) and its game in progress (ID/play.new ...: a folder of its own)
const SAVE_FILE = /^[A-Za-z0-9_]+(\/play)?\.(sav|bak|new)$/;
function restoreSaves(mp) {
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const name = key.startsWith(SAVE_KEY) ? key.slice(SAVE_KEY.length) : "";
    if (!SAVE_FILE.test(name)) continue;
    const slash = name.indexOf("/");
    if (slash > 0) {
      try {
        mp.FS.mkdir("/saves/" + name.slice(0, slash));
      } catch (err) {
        // there already: another file of that folder came first
      }
    }
    mp.FS.writeFile("/saves/" + name, fromBase64(localStorage.getItem(key)));
  }
}
function saveChanged(mp, name) {
  if (!SAVE_FILE.test(name)) return;      // the save store's files only (not Klotski's cache)
  try {
    localStorage.setItem(SAVE_KEY + name, toBase64(mp.FS.readFile("/saves/" + name)));
  } catch (err) {
    if (err.name === "QuotaExceededError") say("browser storage is full: saves are not kept", true);
    else localStorage.removeItem(SAVE_KEY + name);   // the file is gone (renamed, removed)
  }
}

// -- level packs: bytes go to the firmware's own checks, the answer is shown as text ----------
function installPack(mp, hwWeb, bytes) {
  mp.FS.writeFile("/levels/incoming.bin", bytes);
  const [game, count, reason, first] = mp.PyProxy.toJs(hwWeb.install_pack("/levels/incoming.bin"));
  mp.FS.unlink("/levels/incoming.bin");
  pocket.pack = { game, count, reason, first };
  if (reason) say(`LEVEL PACK BAD${game ? " (" + game + ")" : ""}: ${reason}`, true);
  else say(`Level pack for ${game}: ${count} level${count === 1 ? "" : "s"}, first "${first}". ` +
           "Open the game from the menu to play them.");
}
function acceptDrops(mp, hwWeb) {
  const take = async (file) => {
    if (file) installPack(mp, hwWeb, new Uint8Array(await file.arrayBuffer()));
  };
  addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dragging"); });
  addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dragging");
    take(e.dataTransfer.files[0]);
  });
  document.getElementById("packfile").addEventListener("change", (e) => {
    take(e.target.files[0]);
    e.target.blur();                      // the arrow keys belong to the handheld again
  });
}

// -- start-up and the tick loop ----------------------------------------------------------------
async function loadFirmware(mp) {
  const manifest = await (await fetch("firmware/manifest.json")).json();
  const files = await Promise.all(manifest.modules.map(async (name) => {
    const response = await fetch("firmware/" + name);
    if (!response.ok) throw new Error(`cannot load firmware/${name}: HTTP ${response.status}`);
    return [name, new Uint8Array(await response.arrayBuffer())];
  }));
  for (const dir of ["/fw", "/saves", "/levels"]) mp.FS.mkdir(dir);
  for (const [name, bytes] of files) mp.FS.writeFile("/fw/" + name, bytes);
}

async function boot() {
  fitScreen();
  addEventListener("resize", fitScreen);
  let script = null;
  if (params.has("keys")) script = parseKeys(params.get("keys"));
  const mp = await loadMicroPython({ stdout: (line) => console.log(line), stderr: (line) => console.error(line) });
  await loadFirmware(mp);
  restoreSaves(mp);
  mp.runPython("import sys\nsys.path.insert(0, '/fw')\n");
  const hwWeb = mp.pyimport("hw_web");
  if (params.has("pack")) {               // a pack that cannot be fetched is reported, the page goes on
    try {
      const response = await fetch(params.get("pack"));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      installPack(mp, hwWeb, new Uint8Array(await response.arrayBuffer()));
    } catch (err) {
      pocket.pack = { game: "", count: 0, reason: String(err.message || err), first: "" };
      say(`cannot load the pack ${params.get("pack")}: ${pocket.pack.reason}`, true);
    }
  }
  acceptDrops(mp, hwWeb);
  const app = hwWeb.App(beep, (name) => saveChanged(mp, name), script !== null);
  const tick = app.tick;
  if (params.has("game") && !app.open_game(params.get("game"), parseInt(params.get("level"), 10) || 0)) {
    say(`no game "${params.get("game")}" on this handheld`, true);
  }
  plugCable(app);
  pocket.ready = true;
  pocket.app = app;
  if (script !== null) await playScript(tick, app, script);
  runLive(tick, app);
}

// The link cable (docs/link.md): two tabs of this browser (or two frames of one page) are two
// handhelds wired together.  What the firmware's link wrote in a tick goes to the other tab over
// a BroadcastChannel, as hex; what comes from it is fed to the link.  ?link=NAME picks the
// channel (default "1"): tabs on the same name are on the same cable.
const cable = "BroadcastChannel" in window ? new BroadcastChannel("pocket-link-" + (params.get("link") || "1")) : null;
function plugCable(app) {
  if (cable) cable.onmessage = (e) => { if (typeof e.data === "string" && e.data) app.link_in(e.data); };
}
function linkOut(app) {
  const hex = app.link_out();
  if (hex && cable) cable.postMessage(hex);
}

// A key script runs on the simulator's virtual clock, in slices so the page stays alive.
async function playScript(tick, app, script) {
  const total = Math.max(Number(params.get("ticks") || 0), script.length + (params.has("ticks") ? 0 : 10));
  for (let i = 0; i < total; i++) {
    const hex = tick(i < script.length ? script[i] : 0, Math.floor(i * 1000 / 30));
    linkOut(app);
    if (hex) draw(hex);
    if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  pocket.ticks = total;
  pocket.final = app.frame();             // the screen at the script's end (live ticks follow)
  pocket.game = app.game_id();
  pocket.done = true;
  app.hw.now = Math.floor(total * 1000 / 30);
  app.go_live();                          // the real clock goes on from the script's end
}

// 30 ticks a second against the wall clock, without drift; a late tick restarts the schedule
// (like Runtime.run) instead of running a burst to catch up.
function runLive(tick, app) {
  let base = performance.now(), k = 0, first = true, contrast = 255;
  const step = () => {
    const t0 = performance.now();
    let hex;
    try {
      hex = tick(buttonMask());
      linkOut(app);
    } catch (err) {                       // the launcher itself failed: the device would stop too
      pocket.error = String(err.message || err);
      say("The handheld stopped: " + pocket.error, true);
      return;
    }
    if (hex) {
      draw(hex);
      const level = app.contrast();       // the contrast setting dims the glass a little
      if (level !== contrast) canvas.style.filter = `brightness(${0.4 + 0.6 * level / 255})`;
      contrast = level;
    }
    const took = performance.now() - t0;   // the firmware's tick and the canvas update
    if (first) {
      pocket.loadMs = performance.now();   // ms since the page's navigation started
      if (!statusLine.classList.contains("error") && !pocket.pack) say("");
      first = false;
    }
    if (pocket.tickMs.length < 100000) pocket.tickMs.push(took);
    pocket.game = app.game_id();
    tickNo++;
    k++;
    let due = base + k * TICK_MS;
    const late = performance.now() - due;
    if (late > 0) { base = performance.now(); k = 0; due = base; }
    setTimeout(step, Math.max(0, due - performance.now()));
  };
  step();
}

boot().catch((err) => {
  pocket.error = String(err && err.message ? err.message : err);
  say("The handheld failed to start: " + pocket.error, true);
  console.error(err);
});
