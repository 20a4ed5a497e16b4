"""Reading Cat & Mouse map files on the laptop (`solve grid`, `play catmouse`),
with one-line errors."""

import re

import host_tools.core.fwpath  # noqa: F401
from catmouse import MapError, parse_map

from host_tools.core import UserError

# control characters other than tab, CR and LF: a binary file that happens to decode
_BINARY = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def read_map(path):
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
    except FileNotFoundError:
        raise UserError("map file %s does not exist" % path) from None
    except UnicodeDecodeError:
        raise UserError("%s is not a text map (not UTF-8)" % path) from None
    except OSError as exc:
        raise UserError("cannot read %s: %s" % (path, exc.strerror)) from None
    if _BINARY.search(text):
        raise UserError("%s is not a text map (it holds binary bytes)" % path)
    try:
        return parse_map(text)
    except MapError as exc:
        raise UserError("%s: %s" % (path, exc)) from None
