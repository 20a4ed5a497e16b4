// Run a Python snippet in the official MicroPython WebAssembly port (GC on),
// with the firmware files copied into its in-memory filesystem at /fw.
// usage: node node_runner.mjs FIRMWARE_DIR < code.py
//
// A line "#@@toplevel" splits the snippet into parts run one after another in
// the same interpreter (same globals).  This port cannot scan the wasm stack, so
// gc.collect() called from Python only marks a collection as pending; it runs
// when control is back at the top level, between two parts.  A resident-heap
// figure therefore has to be read in a part after the one that called
// gc.collect(): within one part, garbage is never freed.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { copyTree } from "./mpfs.mjs";
import fs from "node:fs";

const fwDir = process.argv[2];
const code = fs.readFileSync(0, "utf8");
const mp = await loadMicroPython({ stdout: (s) => process.stdout.write(s + "\n"), stderr: (s) => process.stderr.write(s + "\n") });

copyTree(mp, fwDir, "/fw");
try {
  mp.runPython("import sys\nsys.path.insert(0, '/fw')\n");
  for (const part of code.split(/^#@@toplevel[ \t]*$/m)) mp.runPython(part);
} catch (err) {
  process.stderr.write(String(err && err.message ? err.message : err) + "\n");
  process.exit(1);
}
