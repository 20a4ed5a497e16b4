"""The key-script grammar of ``sim --keys``, ``vpico --keys`` and the web page's ``?keys=``.

A script is tokens separated by blanks (space, tab, line ends, form feed,
vertical tab) or commas, read case-insensitively; each token becomes ticks
(1/30 s each) with a set of buttons down:

    NAME          tap a button (up down left right a b; z = a, x = b):
                  down 2 ticks, up 2 ticks
    NAME*N        N taps
    NAME+NAME     the buttons tapped together (``b+a``: the games' B+A undo)
    wait          15 idle ticks;  ``wait:N``  N idle ticks
    hold:NAME:N   the button down N ticks, then up 2 ticks

A count N is decimal digits only (no sign, no ``_``) and at most
MAX_KEY_COUNT.  Anything else is a UserError naming the token.  The web page
parses the same grammar in JavaScript (host_tools/web/site/keyscript.mjs);
tests/test_keyscript.py runs both over the same scripts.
"""

import re
from pathlib import Path

from host_tools.core import UserError

KEY_NAMES = ("up", "down", "left", "right", "a", "b")
ALIASES = {"z": "a", "x": "b"}
MAX_KEY_COUNT = 1000000  # ticks in one key token (a script is one list entry per tick)
_BLANKS = re.compile(r"[ \t\n\r\f\v,]+")      # not str.split(): that also splits at 0x1C-0x1F
_DIGITS = re.compile(r"[0-9]+")
_WAIT = 15


def parse_keys(text):
    """Key script -> list of per-tick sets of pressed button names."""
    if not text.isascii():          # before lower(): 'K' (Kelvin) lowers to 'k'
        raise UserError("key script has a non-ASCII character")
    ticks = []
    for token in _BLANKS.split(text):
        if not token:
            continue
        tok = token.lower()
        if tok == "wait" or tok.startswith("wait:"):
            n = _WAIT if tok == "wait" else _count(tok[5:], token)
            ticks.extend([frozenset()] * n)
            continue
        if tok.startswith("hold:"):
            parts = tok.split(":")
            if len(parts) != 3:
                raise UserError("bad key token %r (use hold:NAME:TICKS)" % token)
            name = _key(parts[1], token)
            ticks.extend([frozenset([name])] * _count(parts[2], token))
            ticks.extend([frozenset()] * 2)
            continue
        name, star, times = tok.partition("*")
        names = frozenset(_key(part, token) for part in name.split("+"))
        for _ in range(_count(times, token) if star else 1):
            ticks.extend([names] * 2 + [frozenset()] * 2)
    return ticks


def key_script(keys=None, keys_file=None):
    """The per-tick key list of ``--keys-file`` then ``--keys`` (shared by sim and vpico)."""
    script = []
    if keys_file:
        try:
            script += parse_keys(Path(keys_file).read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            raise UserError("cannot read --keys-file %s: not a text file (not UTF-8)" % keys_file) from None
        except OSError as exc:
            raise UserError("cannot read --keys-file: %s" % exc) from None
    if keys:
        script += parse_keys(keys)
    return script


def _key(name, token):
    name = ALIASES.get(name, name)
    if name not in KEY_NAMES:
        raise UserError("unknown key %r in %r (use %s, wait, wait:N, hold:NAME:N, NAME*N, NAME+NAME)"
                        % (name, token, ", ".join(KEY_NAMES)))
    return name


def _count(text, token):
    if not _DIGITS.fullmatch(text):      # int() would take "+3", "1_0", " 3"
        raise UserError("bad count in key token %r" % token)
    n = int(text)
    if n > MAX_KEY_COUNT:
        raise UserError("count in key token %r is over %d" % (token, MAX_KEY_COUNT))
    return n
