"""`python -m host_tools wiring --board B -o B.svg`: the board file as a wiring picture.

The Pico's 40 pins, labelled with their GP number and physical pin, and every part
the board file names (the OLED's four pins, each button, the buzzer, the link
cable's jack: TX, RX and GND, crossed to the other handheld's) wired to them:
a button with ``pull: up`` goes between its pin and GND, one with ``pull: down``
between its pin and 3V3(OUT). The picture is drawn from the board file alone, so
`wiring --docs` rewrites docs/wiring/ and a test checks those pictures are current.
One list of shapes is written as SVG (text, deterministic) or PNG (Pillow).
"""

import argparse
from pathlib import Path

from host_tools.core import UserError

# Physical pin -> name, as printed on the Pico, Pico W and Pico 2 (same header).
# Pins 1-20 run down the left edge (USB at the top), 40-21 down the right edge.
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
    23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
    30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF",
    36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
GP_PIN = {int(name[2:]): pin for pin, name in PICO_PINS.items() if name.startswith("GP")}
GND_PINS = (3, 8, 13, 18, 23, 28, 38)
PIN_3V3 = 36
PICO_BOARDS = ("rp2040", "rp2350")

WIRE_COLOURS = {"GND": "#222222", "3V3": "#d62728", "SDA": "#1f77b4", "SCL": "#e6a800"}
BUTTON_COLOURS = ("#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")

PITCH = 26                  # between two header pins
TOP = 160                   # y of pin 1 / pin 40
BOARD_X0, BOARD_X1 = 390, 610
COMPONENT_X = {"left": 20, "right": 820}
COMPONENT_W = 180
WIDTH = 1020


def pin_y(pin):
    return TOP + ((pin - 1) if pin <= 20 else (40 - pin)) * PITCH


def pin_side(pin):
    return "left" if pin <= 20 else "right"


def pin_x(pin):
    return BOARD_X0 if pin <= 20 else BOARD_X1


class Drawing:
    """Shapes in drawing order; ``svg()`` and ``png()`` render the same list."""

    def __init__(self):
        self.shapes = []
        self.height = TOP + 20 * PITCH + 60

    def rect(self, x, y, w, h, fill, stroke="#000000", rx=0):
        self.shapes.append(("rect", x, y, w, h, fill, stroke, rx))

    def line(self, points, colour, width=3):
        self.shapes.append(("line", tuple(points), colour, width))

    def dot(self, x, y, r, fill):
        self.shapes.append(("dot", x, y, r, fill))

    def text(self, x, y, text, size=13, anchor="start", colour="#000000", bold=False):
        self.shapes.append(("text", x, y, text, size, anchor, colour, bold))

    def svg(self):
        out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
               'font-family="DejaVu Sans, Arial, sans-serif">' % (WIDTH, self.height, WIDTH, self.height),
               '<rect width="100%" height="100%" fill="#ffffff"/>']
        for shape in self.shapes:
            kind = shape[0]
            if kind == "rect":
                _, x, y, w, h, fill, stroke, rx = shape
                out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="%d" fill="%s" stroke="%s"/>'
                           % (x, y, w, h, rx, fill, stroke))
            elif kind == "line":
                _, points, colour, width = shape
                out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="%d" '
                           'stroke-linejoin="round"/>' % (" ".join("%d,%d" % p for p in points),
                                                          colour, width))
            elif kind == "dot":
                _, x, y, r, fill = shape
                out.append('<circle cx="%d" cy="%d" r="%d" fill="%s"/>' % (x, y, r, fill))
            else:
                _, x, y, text, size, anchor, colour, bold = shape
                out.append('<text x="%d" y="%d" font-size="%d" text-anchor="%s" fill="%s"%s>%s</text>'
                           % (x, y, size, anchor, colour, ' font-weight="bold"' if bold else "",
                              _escape(text)))
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def png(self, scale=1):
        from PIL import Image, ImageDraw, ImageFont

        image = Image.new("RGB", (WIDTH * scale, self.height * scale), "#ffffff")
        draw = ImageDraw.Draw(image)
        fonts = {}

        def font(size, bold):
            key = (size, bold)
            if key not in fonts:
                name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
                try:
                    fonts[key] = ImageFont.truetype(name, size * scale)
                except OSError:
                    fonts[key] = ImageFont.load_default(size * scale)
            return fonts[key]

        for shape in self.shapes:
            kind = shape[0]
            if kind == "rect":
                _, x, y, w, h, fill, stroke, rx = shape
                draw.rounded_rectangle([x * scale, y * scale, (x + w) * scale, (y + h) * scale],
                                       radius=rx * scale, fill=fill, outline=stroke)
            elif kind == "line":
                _, points, colour, width = shape
                draw.line([(px * scale, py * scale) for px, py in points], fill=colour,
                          width=width * scale, joint="curve")
            elif kind == "dot":
                _, x, y, r, fill = shape
                draw.ellipse([(x - r) * scale, (y - r) * scale, (x + r) * scale, (y + r) * scale], fill=fill)
            else:
                _, x, y, text, size, anchor, colour, bold = shape
                draw.text((x * scale, y * scale), text, fill=colour, font=font(size, bold),
                          anchor={"start": "ls", "middle": "ms", "end": "rs"}[anchor])
        return image


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def connections(cfg):
    """[(part, terminal, physical pin, colour)] of what the board file wires, in
    drawing order: the display, the buttons, the buzzer, the link cable.  Pin None: the GND pin
    nearest the part's signal pin."""
    rows = []
    disp = cfg["display"]["controller"].upper()
    i2c = cfg["i2c"]
    oled = "%s OLED (I2C%d, 0x%02X)" % (disp, i2c["bus"], i2c["address"])
    rows += [(oled, "GND", None, WIRE_COLOURS["GND"]),
             (oled, "VCC", PIN_3V3, WIRE_COLOURS["3V3"]),
             (oled, "SCL", GP_PIN[i2c["scl"]], WIRE_COLOURS["SCL"]),
             (oled, "SDA", GP_PIN[i2c["sda"]], WIRE_COLOURS["SDA"])]
    for k, (name, spec) in enumerate(cfg["buttons"].items()):
        label = "button %s" % name.upper()
        colour = BUTTON_COLOURS[k % len(BUTTON_COLOURS)]
        rows.append((label, "GP%d" % spec["pin"], GP_PIN[spec["pin"]], colour))
        other = PIN_3V3 if spec["pull"] == "down" else None
        rows.append((label, "3V3" if other else "GND", other, WIRE_COLOURS["3V3" if other else "GND"]))
    if cfg.get("buzzer"):
        pin = cfg["buzzer"]["pin"]
        rows.append(("piezo buzzer", "+", GP_PIN[pin], "#ff7f0e"))
        rows.append(("piezo buzzer", "-", None, WIRE_COLOURS["GND"]))
    link = cfg.get("link")
    if link:
        jack = "link cable (UART%d, crossed)" % link["uart"]
        rows.append((jack, "TX", GP_PIN[link["tx"]], "#bc5090"))
        rows.append((jack, "RX", GP_PIN[link["rx"]], "#58508d"))
        rows.append((jack, "GND", None, WIRE_COLOURS["GND"]))
    return rows


def _nearest_gnd(pin):
    side = pin_side(pin)
    return min((g for g in GND_PINS if pin_side(g) == side), key=lambda g: abs(pin_y(g) - pin_y(pin)))


def draw_board(cfg):
    """The wiring picture of one Pico board file as a Drawing."""
    d = Drawing()
    title = "%s: %s" % (cfg["name"], cfg.get("board", "Raspberry Pi Pico"))
    d.text(WIDTH // 2, 34, title, size=20, anchor="middle", bold=True)
    d.text(WIDTH // 2, 58, "seen from above, USB at the top; labels: GP number (physical pin)",
           size=12, anchor="middle", colour="#555555")
    # the board and its header
    d.rect(BOARD_X0 - 12, TOP - 40, BOARD_X1 - BOARD_X0 + 24, 20 * PITCH + 64, "#1f7a3a", rx=8)
    d.rect((BOARD_X0 + BOARD_X1) // 2 - 22, TOP - 52, 44, 22, "#c0c0c0", rx=3)
    d.text((BOARD_X0 + BOARD_X1) // 2, TOP - 36, "USB", size=11, anchor="middle")
    d.text((BOARD_X0 + BOARD_X1) // 2, TOP + 19 * PITCH + 30, cfg.get("board", "Pico"), size=13,
           anchor="middle", colour="#ffffff", bold=True)
    for pin, name in PICO_PINS.items():
        x, y = pin_x(pin), pin_y(pin)
        d.dot(x, y, 6, "#e8c547")
        inner = x + 12 if pin <= 20 else x - 12
        d.text(inner, y + 4, "%s (%d)" % (name, pin), size=10, colour="#ffffff",
               anchor="start" if pin <= 20 else "end")
    # the parts: one box per part, on the side of the board its first wire goes to
    rows = connections(cfg)
    parts = {}
    for part, terminal, pin, colour in rows:
        parts.setdefault(part, []).append([terminal, pin, colour])
    signal = {}
    for part, terms in parts.items():
        signal[part] = next(p for _, p, _ in terms if p is not None and p != PIN_3V3)
        for term in terms:
            if term[1] is None:
                term[1] = _nearest_gnd(signal[part])
    placed = {"left": TOP - 20, "right": TOP - 20}
    channel = {"left": 0, "right": 0}
    for part, terms in parts.items():
        side = pin_side(signal[part])
        want = min(pin_y(p) for _, p, _ in terms if pin_side(p) == side) - 14
        y = max(placed[side], want)
        h = 16 + 20 * len(terms)
        x = COMPONENT_X[side]
        placed[side] = y + h + 14
        d.rect(x, y, COMPONENT_W, h, "#f4f4f4", rx=6)
        d.text(x + COMPONENT_W // 2, y + 14, part, size=10, anchor="middle", bold=True)
        for k, (terminal, pin, colour) in enumerate(terms):
            ty = y + 30 + 20 * k
            tx = x + COMPONENT_W if side == "left" else x
            d.text(tx - 8 if side == "left" else tx + 8, ty + 4, terminal, size=11,
                   anchor="end" if side == "left" else "start")
            _route(d, side, tx, ty, pin, colour, channel)
            d.dot(tx, ty, 4, colour)
    d.height = max(d.height, max(placed.values()) + 40)
    d.text(WIDTH // 2, d.height - 18, "buttons: pull %s (pressed = the pin tied to %s); %s"
           % ("up" if all(s["pull"] == "up" for s in cfg["buttons"].values()) else "as listed",
              "GND" if all(s["pull"] == "up" for s in cfg["buttons"].values()) else "GND or 3V3",
              "B = left + right together" if "b" not in cfg["buttons"] else "six buttons"),
           size=12, anchor="middle", colour="#555555")
    return d


def _route(d, side, x, y, pin, colour, channel):
    """An orthogonal wire from a part's terminal to a header pin, each wire in its
    own vertical channel; a wire to the far side goes over the top of the board."""
    px, py = pin_x(pin), pin_y(pin)
    k = channel[side]
    channel[side] += 1
    if side == "left":
        cx = x + 20 + 7 * k
    else:
        cx = x - 20 - 7 * k
    if pin_side(pin) == side:
        d.line([(x, y), (cx, y), (cx, py), (px, py)], colour)
        return
    over = TOP - 58 - 7 * k
    far = px + 26 + 7 * k if pin_side(pin) == "right" else px - 26 - 7 * k
    d.line([(x, y), (cx, y), (cx, over), (far, over), (far, py), (px, py)], colour)


def pico_board(name, boards_dir=None):
    """The validated board file ``name``; a non-Pico board is a UserError."""
    from host_tools.core.boards import BOARDS_DIR   # first: it puts firmware/ on sys.path
    import boardcfg

    try:
        cfg = boardcfg.load(name, str(boards_dir or BOARDS_DIR))
    except boardcfg.BoardError as exc:
        raise UserError(str(exc)) from None
    if cfg.get("mcu") not in PICO_BOARDS:
        raise UserError("board %s is not a Pico (%s): it has no pins to wire; see its "
                        "description in boards/%s.json" % (name, cfg.get("board", cfg.get("mcu")), name))
    return cfg


def pico_board_names(boards_dir=None):
    from host_tools.core.boards import BOARDS_DIR
    names = []
    for path in sorted(Path(boards_dir or BOARDS_DIR).glob("*.json")):
        try:
            pico_board(path.stem, boards_dir)
        except UserError:
            continue
        names.append(path.stem)
    return names


def write_picture(cfg, out):
    from host_tools.core import write_atomic
    out = Path(out)
    drawing = draw_board(cfg)
    if out.suffix.lower() == ".svg":
        write_atomic(out, drawing.svg())
    elif out.suffix.lower() == ".png":
        import io
        buf = io.BytesIO()
        drawing.png(scale=2).save(buf, format="PNG")
        write_atomic(out, buf.getvalue())
    else:
        raise UserError("%s: the picture is written as .svg or .png" % out)


def docs_dir():
    from host_tools.core.fwpath import ROOT
    return ROOT / "docs" / "wiring"


def cmd_wiring(args):
    if args.docs:
        folder = docs_dir()
        folder.mkdir(parents=True, exist_ok=True)
        for name in pico_board_names():
            write_picture(pico_board(name), folder / (name + ".svg"))
            print("wrote %s" % (folder / (name + ".svg")))
        return 0
    if not args.board or not args.output:
        raise UserError("give --board NAME and -o FILE.svg|FILE.png (or --docs)")
    write_picture(pico_board(args.board), args.output)
    print("wrote %s" % args.output)
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "wiring", help="draw a board file's wiring: the Pico's pins, the OLED, the buttons",
        description="Draws the Pico's pinout with the OLED, the buttons and the buzzer wired as the "
                    "board file says, labelled by GP number and physical pin.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  python -m host_tools wiring --board pico-ssd1306 -o pico.svg\n"
               "  python -m host_tools wiring --board pico-ssd1306-5btn -o stick.png\n"
               "  python -m host_tools wiring --docs     # rewrite docs/wiring/*.svg")
    p.add_argument("--board", help="board name from boards/ (e.g. pico-ssd1306)")
    p.add_argument("-o", "--output", help="FILE.svg or FILE.png")
    p.add_argument("--docs", action="store_true",
                   help="write docs/wiring/BOARD.svg for every Pico board file")
    p.set_defaults(func=cmd_wiring)
