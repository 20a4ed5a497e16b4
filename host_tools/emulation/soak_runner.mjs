// The soak's VM: the official MicroPython WebAssembly port (GC on) with the
// firmware copied to /fw, driven line by line from stdin so the host can decide
// the next keys from what the guest printed.
// usage: node soak_runner.mjs FIRMWARE_DIR HEAP_BYTES
//
// Commands, one JSON array per line:
//   ["P", code]          run ``code`` as one top-level part
//   ["T", mask, n]       run ``step(mask)`` n times, each a part of its own
//                        (this port collects garbage only between top-level
//                        parts, so one tick a part is what keeps a tick's
//                        garbage from growing the heap); stops early after a
//                        tick that printed "@@launcher" and says "@@ran k"
//                        (the host reads the heap there, then goes on)
// Each command's output ends with the line "@@done"; a Python error prints
// "@@error <message>" before it.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { copyTree } from "./mpfs.mjs";
import readline from "node:readline";

const fwDir = process.argv[2];
const heapsize = parseInt(process.argv[3] || "1048576", 10);
const out = [];
const mp = await loadMicroPython({ heapsize, stdout: (s) => out.push(s), stderr: (s) => out.push(s) });

copyTree(mp, fwDir, "/fw");
mp.runPython("import sys\nsys.path.insert(0, '/fw')\n");

function flush() {
  out.push("@@done");
  process.stdout.write(out.join("\n") + "\n");
  out.length = 0;
}

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  const cmd = JSON.parse(line);
  try {
    if (cmd[0] === "P") {
      mp.runPython(cmd[1]);
    } else {
      const code = "step(" + cmd[1] + ")";
      for (let k = 1; k <= cmd[2]; k++) {
        const before = out.length;
        mp.runPython(code);
        if (k < cmd[2] && out.slice(before).includes("@@launcher")) {
          out.push("@@ran " + k);
          break;
        }
      }
    }
  } catch (err) {
    out.push("@@error " + String(err && err.message ? err.message : err).replace(/\n/g, " | "));
  }
  flush();
}
