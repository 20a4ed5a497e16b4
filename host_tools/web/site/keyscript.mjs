// The key script of `sim --keys` in JavaScript, for the page's ?keys= parameter:
// the grammar of host_tools/core/keyscript.py (its docstring describes it), one
// tick per entry as a bit mask of the buttons down (bit i = KEY_NAMES[i]).
// tests/test_keyscript.py runs this file under Node and the Python module over the
// same scripts and compares the ticks and which scripts are refused.
export const KEY_NAMES = ["up", "down", "left", "right", "a", "b"];
export const MAX_KEY_COUNT = 1000000;     // ticks in one token, as keyscript.py's
const ALIASES = { z: "a", x: "b" };
const WAIT = 15;

function count(s, token) {
  if (!/^[0-9]+$/.test(s)) throw new Error(`bad count in key token '${token}'`);
  if (Number(s) > MAX_KEY_COUNT) throw new Error(`count in key token '${token}' is over ${MAX_KEY_COUNT}`);
  return Number(s);
}

function bit(name, token) {
  const i = KEY_NAMES.indexOf(Object.hasOwn(ALIASES, name) ? ALIASES[name] : name);
  if (i < 0) throw new Error(`unknown key '${name}' in '${token}'`);
  return 1 << i;
}

export function parseKeys(text) {
  const ticks = [];
  if (!/^[\x00-\x7f]*$/.test(text)) throw new Error("key script has a non-ASCII character");
  for (const token of text.split(/[ \t\n\r\f\v,]+/)) {
    if (!token) continue;
    const tok = token.toLowerCase();
    if (tok === "wait" || tok.startsWith("wait:")) {
      const n = tok === "wait" ? WAIT : count(tok.slice(5), token);
      for (let i = 0; i < n; i++) ticks.push(0);
    } else if (tok.startsWith("hold:")) {
      const parts = tok.split(":");
      if (parts.length !== 3) throw new Error(`bad key token '${token}' (use hold:NAME:TICKS)`);
      const mask = bit(parts[1], token);
      for (let i = count(parts[2], token); i > 0; i--) ticks.push(mask);
      ticks.push(0, 0);
    } else {
      const star = tok.indexOf("*");      // the first '*' only, as Python's partition
      const names = star < 0 ? tok : tok.slice(0, star);
      let mask = 0;
      for (const name of names.split("+")) mask |= bit(name, token);
      for (let n = star < 0 ? 1 : count(tok.slice(star + 1), token); n > 0; n--) ticks.push(mask, mask, 0, 0);
    }
  }
  return ticks;
}
