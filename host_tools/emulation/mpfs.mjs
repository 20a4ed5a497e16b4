// The firmware's .py files (folders included, __pycache__ not) copied from the
// host's ``src`` into the MicroPython WebAssembly port's in-memory file system
// at ``dst``; shared by node_runner.mjs and soak_runner.mjs.
import fs from "node:fs";
import path from "node:path";

export function copyTree(mp, src, dst) {
  mp.FS.mkdir(dst);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") copyTree(mp, from, dst + "/" + entry.name);
    } else if (entry.name.endsWith(".py")) {
      mp.FS.writeFile(dst + "/" + entry.name, fs.readFileSync(from));
    }
  }
}
