"""The one character rule of every text parser: printable ASCII, tab, LF, CR.

CPython's str methods know Unicode and MicroPython's do not: on CPython
'ß'.upper() == 'SS', 'ſ'.upper() == 'S', int('٣') == 3, and strip() also
removes U+00A0, U+3000 and the ASCII separators 0x1C..0x1F.  A parser that
let such text reach upper()/strip()/int() would read a file one way in the
host tools and another way on the device, so parsers call ``first_bad`` before
any of them.  Iterates the text's bytes: MicroPython indexes UTF-8 text in
O(n), and iterating a str interns each character it yields as a name (a
qstr, never freed).
"""


def first_bad(text):
    """(line, column, char) of the first character outside the rule, or None.
    ``text`` is str or bytes (bytes are checked byte by byte)."""
    data = text.encode() if isinstance(text, str) else text
    line = 1
    col = 0
    n = 0
    for o in data:
        col += 1
        if o == 10:
            line += 1
            col = 0
        elif o > 126 or (o < 32 and o != 9 and o != 13):
            # every byte before it is ASCII: one character each
            return line, col, (text[n] if data is not text else chr(o))
        n += 1
    return None


def describe(bad):
    """'line 2, column 5: character U+00DF' for a ``first_bad`` result."""
    return "line %d, column %d: character U+%04X (only plain ASCII is allowed)" % (
        bad[0], bad[1], ord(bad[2]))
