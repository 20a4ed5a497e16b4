"""Board descriptions (boards/<name>.json on the host, board.json on the device).

``validate(cfg)`` checks one description and returns it normalised (address as
an int, optional fields filled in); every problem found is listed in one
BoardError.  ``load(name, boards_dir)`` reads boards/<name>.json (an unknown
name lists the known ones); ``load_device()`` reads ``board.json`` at the device
root and falls back to DEFAULT (the Pico + SSD1306 build).

Fields:
  name, mcu ("rp2040" | "rp2350" | "bcm283x" | "esp32"), board (free text),
  runtime ("micropython" | "circuitpython" | "blinka"),
  display: {controller "ssd1306" | "sh1106", width 128, height 64 | 32,
            rotation 0 | 180},
  i2c: {bus, sda, scl, address (int or "0x3C"), freq (10 kHz .. 1 MHz)},
  buttons: {up, down, left, right, a, b: {pin, pull "up" | "down" | "none"}}
           plus extra inputs {pin, pull, "as": one of the six} (e.g. a stick's
           centre press); a button missing here must come from
  combos: {button: [two or more other buttons pressed together]},
  buzzer: null or {pin},
  power (optional; absent: USB only, nothing read): {cell "lipo" | "3aaa" | "usb",
         adc: null or the pin that reads the supply through a divider (RP2040:
         GP26..GP29; a Pico reads VSYS/3 on GP29, which the Pico W's radio uses:
         not available there), divider (supply / pin voltage, e.g. 3),
         vbus: null or a pin high on USB power (a Pico's GP24)},
  link (optional; absent or null: no link cable): {uart 0 | 1, tx, rx}: the
         link cable's UART (docs/link.md; 115,200 baud), on that UART's
         hardware TX and RX pins (a Pico's default: UART0, TX GP0, RX GP1).
"""

from asciitext import first_bad
from strictjson import loads as json_loads

BUTTON_NAMES = ("up", "down", "left", "right", "a", "b")
RUNTIMES = ("micropython", "circuitpython", "blinka")
MCUS = ("rp2040", "rp2350", "bcm283x", "esp32")
CONTROLLERS = ("ssd1306", "sh1106")
PULLS = ("up", "down", "none")

# RP2040/RP2350 hardware I2C pin functions: bus -> (SDA pins, SCL pins)
_RP_I2C = {
    0: ((0, 4, 8, 12, 16, 20, 28), (1, 5, 9, 13, 17, 21)),
    1: ((2, 6, 10, 14, 18, 26), (3, 7, 11, 15, 19, 27)),
}
_PICO_W_RESERVED = (23, 24, 25, 29)
# RP2040/RP2350 hardware UART pin functions: uart -> (TX pins, RX pins)
_RP_UART = {
    0: ((0, 12, 16, 28), (1, 13, 17, 29)),
    1: ((4, 8, 20, 24), (5, 9, 21, 25)),
}

DEFAULT = {
    "name": "pico-ssd1306",
    "board": "Raspberry Pi Pico",
    "mcu": "rp2040",
    "runtime": "micropython",
    "display": {"controller": "ssd1306", "width": 128, "height": 64, "rotation": 0},
    "i2c": {"bus": 0, "sda": 4, "scl": 5, "address": 0x3C, "freq": 400000},
    "buttons": {
        "up": {"pin": 2, "pull": "up"}, "down": {"pin": 3, "pull": "up"},
        "left": {"pin": 6, "pull": "up"}, "right": {"pin": 7, "pull": "up"},
        "a": {"pin": 8, "pull": "up"}, "b": {"pin": 9, "pull": "up"},
    },
    "combos": {},
    "buzzer": {"pin": 15},
    "power": {"cell": "usb", "adc": None, "divider": 1, "vbus": None},
    "link": {"uart": 0, "tx": 0, "rx": 1},
}


class BoardError(ValueError):
    def __init__(self, name, problems):
        self.name = name
        self.problems = problems
        super().__init__("board %s: %s" % (name, "; ".join(problems)))


def _int(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        if first_bad(value):        # CPython's int() reads Unicode digits and spaces
            return None
        try:
            return int(value, 0)
        except ValueError:
            return None
    return None


def _pin_ok(mcu, board, pin):
    if mcu in ("rp2040", "rp2350"):
        if not 0 <= pin <= 29:
            return "GP%d does not exist (GP0..GP29)" % pin
        if "W" in board.split() and pin in _PICO_W_RESERVED:
            return "GP%d is used by the Pico W radio" % pin
    elif mcu == "bcm283x" and not 0 <= pin <= 27:
        return "BCM %d is not on the 40-pin header (0..27)" % pin
    return None


def validate(cfg, name=None):
    """Return a normalised copy of ``cfg``; raise BoardError listing every problem.
    Each part is checked by a helper of its own that appends its problems, in
    the order of the fields, so one error lists them all."""
    problems = []
    if not isinstance(cfg, dict):
        raise BoardError(name or "?", ["not a JSON object"])
    name = name or cfg.get("name") or "?"
    out = {}
    for key in ("name", "mcu", "runtime", "display", "i2c", "buttons"):
        if key not in cfg:
            problems.append("missing field '%s'" % key)
    known = ("name", "description", "board", "mcu", "runtime", "display", "i2c",
             "buttons", "combos", "buzzer", "power", "link")
    for key in cfg:
        if key not in known:
            problems.append("unknown field '%s'" % key)
    out["name"] = cfg.get("name", name)
    out["description"] = cfg.get("description", "")
    board = cfg.get("board", "")
    board = board if isinstance(board, str) else ""
    out["board"] = board
    mcu = cfg.get("mcu")
    if "mcu" in cfg and mcu not in MCUS:
        problems.append("mcu %r is not one of %s" % (mcu, ", ".join(MCUS)))
    out["mcu"] = mcu
    runtime = cfg.get("runtime")
    if "runtime" in cfg and runtime not in RUNTIMES:
        problems.append("runtime %r is not one of %s" % (runtime, ", ".join(RUNTIMES)))
    out["runtime"] = runtime
    out["display"] = _display(cfg, problems)
    bus_cfg = _i2c(cfg, mcu, problems)
    out["i2c"] = bus_cfg
    used = {}       # pin -> the field that has it
    for key in ("sda", "scl"):
        if isinstance(bus_cfg.get(key), int):
            used[bus_cfg[key]] = "i2c." + key
    btn_out = _buttons(cfg, mcu, board, used, problems)
    out["buttons"] = btn_out
    combo_out = _combos(cfg, btn_out, problems)
    out["combos"] = combo_out
    if isinstance(cfg.get("buttons"), dict):
        provided = [btn_out[b]["as"] for b in btn_out] + list(combo_out)
        missing = [b for b in BUTTON_NAMES if b not in provided]
        if missing:
            problems.append("no pin or combo for button(s): %s" % ", ".join(missing))
    out["buzzer"] = _buzzer(cfg, mcu, board, used, problems)
    out["power"] = _power(cfg.get("power"), mcu, out["board"], used, problems)
    out["link"] = _link(cfg.get("link"), mcu, out["board"], used, problems)
    if problems:
        raise BoardError(name, problems)
    return out


def _display(cfg, problems):
    """The normalised "display" object ({} when it is not an object)."""
    disp = cfg.get("display")
    if not isinstance(disp, dict):
        if "display" in cfg:
            problems.append("display must be an object")
        return {}
    c = disp.get("controller")
    if c not in CONTROLLERS:
        problems.append("display.controller %r is not one of %s" % (c, ", ".join(CONTROLLERS)))
    w = _int(disp.get("width"))
    h = _int(disp.get("height"))
    if w != 128:
        problems.append("display.width must be 128 (got %r)" % (disp.get("width"),))
    if h not in (32, 64):
        problems.append("display.height must be 64 or 32 (got %r)" % (disp.get("height"),))
    if c == "sh1106" and h == 32:
        problems.append("display: SH1106 panels are 128x64")
    rot = _int(disp.get("rotation", 0))
    if rot not in (0, 180):
        problems.append("display.rotation must be 0 or 180 (got %r)" % (disp.get("rotation"),))
    return {"controller": c, "width": w, "height": h, "rotation": rot}


def _i2c(cfg, mcu, problems):
    """The normalised "i2c" object ({} when it is not an object); on an RP2040
    or RP2350 the pins must be the chosen bus's hardware SDA and SCL."""
    i2c = cfg.get("i2c")
    if not isinstance(i2c, dict):
        if "i2c" in cfg:
            problems.append("i2c must be an object")
        return {}
    for key in ("bus", "sda", "scl", "address", "freq"):
        if key not in i2c:
            problems.append("missing field 'i2c.%s'" % key)
    bus = _int(i2c.get("bus", 0))
    sda = _int(i2c.get("sda", 0))
    scl = _int(i2c.get("scl", 0))
    addr = _int(i2c.get("address", 0x3C))
    freq = _int(i2c.get("freq", 400000))
    if bus is None or sda is None or scl is None:
        problems.append("i2c.bus/sda/scl must be integers")
    elif mcu in ("rp2040", "rp2350"):
        if bus not in _RP_I2C:
            problems.append("i2c.bus must be 0 or 1 on the %s" % mcu)
        else:
            if sda not in _RP_I2C[bus][0]:
                problems.append("i2c.sda GP%d is not an SDA pin of I2C%d (one of %s)"
                                % (sda, bus, ", ".join("GP%d" % p for p in _RP_I2C[bus][0])))
            if scl not in _RP_I2C[bus][1]:
                problems.append("i2c.scl GP%d is not an SCL pin of I2C%d (one of %s)"
                                % (scl, bus, ", ".join("GP%d" % p for p in _RP_I2C[bus][1])))
    if addr not in (0x3C, 0x3D):
        problems.append("i2c.address must be 0x3C or 0x3D (got %r)" % (i2c.get("address"),))
    if freq is None or not 10000 <= freq <= 1000000:
        problems.append("i2c.freq must be 10000..1000000 Hz (got %r)" % (i2c.get("freq"),))
    return {"bus": bus, "sda": sda, "scl": scl, "address": addr, "freq": freq}


def _buttons(cfg, mcu, board, used, problems):
    """The normalised "buttons" object ({} when it is not an object); each pin
    must exist on the board and be free (``used`` gets the buttons' pins)."""
    buttons = cfg.get("buttons")
    btn_out = {}
    if not isinstance(buttons, dict):
        if "buttons" in cfg:
            problems.append("buttons must be an object")
        return btn_out
    for bname in buttons:
        spec = buttons[bname]
        if bname not in BUTTON_NAMES and not (isinstance(spec, dict) and "as" in spec):
            problems.append("buttons.%s is not one of %s (extra inputs need \"as\")"
                            % (bname, ", ".join(BUTTON_NAMES)))
            continue
        if not isinstance(spec, dict):
            problems.append("buttons.%s must be an object {pin, pull}" % bname)
            continue
        pin = _int(spec.get("pin"))
        pull = spec.get("pull", "up")
        if pin is None:
            problems.append("buttons.%s.pin missing or not an integer" % bname)
        else:
            bad = _pin_ok(mcu, board, pin)
            if bad:
                problems.append("buttons.%s: %s" % (bname, bad))
            if pin in used:
                problems.append("buttons.%s: pin %d is already used by %s" % (bname, pin, used[pin]))
            used[pin] = "buttons." + bname
        if pull not in PULLS:
            problems.append("buttons.%s.pull %r is not one of up, down, none" % (bname, pull))
        target = spec.get("as", bname)
        if target not in BUTTON_NAMES:
            problems.append("buttons.%s.as %r is not one of %s" % (bname, target, ", ".join(BUTTON_NAMES)))
        btn_out[bname] = {"pin": pin, "pull": pull, "as": target}
    return btn_out


def _combos(cfg, btn_out, problems):
    """The normalised "combos" object: virtual buttons made of two or more
    physical ones."""
    combos = cfg.get("combos") or {}
    combo_out = {}
    if not isinstance(combos, dict):
        problems.append("combos must be an object")
        return combo_out
    for cname in combos:
        parts = combos[cname]
        if cname not in BUTTON_NAMES:
            problems.append("combos.%s is not one of %s" % (cname, ", ".join(BUTTON_NAMES)))
        elif cname in btn_out:
            problems.append("combos.%s: %s is already a physical button" % (cname, cname))
        if (not isinstance(parts, list) or len(parts) < 2
                or any(not isinstance(p, str) or p not in btn_out for p in parts)):
            problems.append("combos.%s must list two or more physical buttons" % cname)
        else:
            combo_out[cname] = list(parts)
    return combo_out


def _buzzer(cfg, mcu, board, used, problems):
    """The normalised "buzzer": None or {"pin": N} on a pin of its own."""
    buzzer = cfg.get("buzzer")
    if buzzer is None:
        return None
    if not isinstance(buzzer, dict) or _int(buzzer.get("pin")) is None:
        problems.append("buzzer must be null or {\"pin\": N}")
        return None
    pin = _int(buzzer["pin"])
    bad = _pin_ok(mcu, board, pin)
    if bad:
        problems.append("buzzer: %s" % bad)
    if pin in used:
        problems.append("buzzer: pin %d is already used by %s" % (pin, used[pin]))
    return {"pin": pin}


def _link(link, mcu, board, used, problems):
    """The normalised "link": None or {"uart", "tx", "rx"} on that UART's
    hardware pins, each free."""
    if link is None:
        return None
    if not isinstance(link, dict):
        problems.append("link must be null or an object {uart, tx, rx}")
        return None
    for key in link:
        if key not in ("uart", "tx", "rx"):
            problems.append("link: unknown field '%s'" % key)
    if mcu not in ("rp2040", "rp2350"):
        problems.append("link: the link cable needs an RP2040 or RP2350 UART (mcu is %s)" % mcu)
        return None
    uart = _int(link.get("uart"))
    tx = _int(link.get("tx"))
    rx = _int(link.get("rx"))
    if uart not in _RP_UART:
        problems.append("link.uart must be 0 or 1 (got %r)" % (link.get("uart"),))
        return None
    ok = True
    for key, pin, pins in (("tx", tx, _RP_UART[uart][0]), ("rx", rx, _RP_UART[uart][1])):
        if pin not in pins:
            problems.append("link.%s %r is not a %s pin of UART%d (one of %s)"
                            % (key, link.get(key), key.upper(), uart, ", ".join("GP%d" % p for p in pins)))
            ok = False
            continue
        bad = _pin_ok(mcu, board, pin)
        if bad:
            problems.append("link.%s: %s" % (key, bad))
            ok = False
        if pin in used:
            problems.append("link.%s: pin %d is already used by %s" % (key, pin, used[pin]))
            ok = False
        used[pin] = "link." + key
    return {"uart": uart, "tx": tx, "rx": rx} if ok else None


CELLS = ("lipo", "3aaa", "usb")     # battery.CELLS
NO_POWER_READING = {"cell": "usb", "adc": None, "divider": 1, "vbus": None}


def _power_pin(power, key, mcu, board, used, problems):
    """An optional pin of the power field, checked; None when absent or bad."""
    value = power.get(key)
    if value is None:
        return None
    pin = _int(value)
    if pin is None:
        problems.append("power.%s must be null or a pin number" % key)
        return None
    bad = _pin_ok(mcu, board, pin)
    if bad:
        problems.append("power.%s: %s%s" % (key, bad, ": battery reading not available"
                                            if "radio" in bad else ""))
        return None
    if pin in used:
        problems.append("power.%s: pin %d is already used by %s" % (key, pin, used[pin]))
        return None
    if key == "adc" and mcu in ("rp2040", "rp2350") and not 26 <= pin <= 29:
        problems.append("power.adc: GP%d has no ADC (GP26..GP29)" % pin)
        return None
    return pin


def _power(power, mcu, board, used, problems):
    """The power field normalised (how the supply is read, what cell feeds it)."""
    if power is None:
        return dict(NO_POWER_READING)
    if not isinstance(power, dict):
        problems.append("power must be an object {cell, adc, divider, vbus}")
        return dict(NO_POWER_READING)
    for key in power:
        if key not in ("cell", "adc", "divider", "vbus"):
            problems.append("power: unknown field '%s'" % key)
    cell = power.get("cell", "usb")
    if cell not in CELLS:
        problems.append("power.cell %r is not one of %s" % (cell, ", ".join(CELLS)))
        cell = "usb"
    divider = power.get("divider", 1)
    if isinstance(divider, bool) or not isinstance(divider, (int, float)) or not 1 <= divider <= 20:
        problems.append("power.divider must be a number from 1 to 20 (supply / pin voltage)")
        divider = 1
    return {"cell": cell, "adc": _power_pin(power, "adc", mcu, board, used, problems),
            "divider": divider, "vbus": _power_pin(power, "vbus", mcu, board, used, problems)}


def loads(text, name="?"):
    """Parse and validate board JSON (str or bytes); BoardError is the only error."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode()
        except UnicodeError:
            raise BoardError(name, ["not UTF-8 text"])
    try:
        cfg = json_loads(text)
    except ValueError as exc:
        raise BoardError(name, ["not valid JSON (%s)" % exc])
    return validate(cfg, name)


def load(name, boards_dir):
    """boards/<name>.json, validated.  Unknown names list the known boards."""
    import os

    names = sorted(f[:-5] for f in os.listdir(boards_dir) if f.endswith(".json"))
    if name not in names:
        raise BoardError(name, ["unknown board; known boards: %s" % ", ".join(names)])
    try:
        with open(boards_dir + "/" + name + ".json", "rb") as f:
            text = f.read()
    except OSError as exc:
        raise BoardError(name, ["cannot read it (%s)" % exc])
    return loads(text, name)


def load_device(path="board.json"):
    """The device's board.json, or DEFAULT when there is none."""
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError:
        return validate(DEFAULT)
    return loads(text, path)


def button_pins(cfg):
    """[(pin, pull, mask)] for the physical inputs."""
    out = []
    for name in cfg["buttons"]:
        spec = cfg["buttons"][name]
        out.append((spec["pin"], spec["pull"], 1 << BUTTON_NAMES.index(spec["as"])))
    return out


def combos(cfg):
    """((chord_mask, virtual_mask), ...) for buttons.combine()."""
    out = []
    for name in cfg["combos"]:
        chord = 0
        for part in cfg["combos"][name]:
            chord |= 1 << BUTTON_NAMES.index(cfg["buttons"][part]["as"])
        out.append((chord, 1 << BUTTON_NAMES.index(name)))
    return tuple(out)
