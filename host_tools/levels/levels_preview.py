"""`levels preview FILE [--index I] [--scale S] -o out.png`: levels as the OLED
shows them.

Each level goes through the simulator's whole path: the game's own ``Scene``
(firmware/<game>_game.py) is built on a simulated handheld, shown the level
with ``Game.show_level(text)``, draws into the frame buffer, the display driver
sends the frame over the fake I2C bus, and the controller model
(host_tools/emulation/oledmodel.py) decodes it into the pixels that are saved, scaled up.
The "HOLD B: MENU" reminder a new game shows for two seconds is left out: the
preview is the level itself.
Without ``--index`` every level of the pack is drawn on one contact sheet
(level 0 top left, row by row).

Every game's ``Scene`` has ``show_level(text)``: Cat & Mouse, Klotski and Trap the
Cat.
"""

from pathlib import Path

import host_tools.core.fwpath  # noqa: F401
from host_tools.core import registry
from host_tools.core import UserError, plural
from host_tools.core.levelcheck import game_module, level_checker, level_text, read_pack

SHEET_COLUMNS = 3
GAP = 4          # OLED pixels between two screens on a contact sheet


def _read_pack(path):
    return read_pack(path, lambda pack: (pack.game, [pack.level(i) for i in range(pack.count)]))


def _game_class(game):
    cls = getattr(game_module(game), "Scene", None)      # a scene that fails to import: UserError
    if cls is None or not callable(getattr(cls, "show_level", None)):
        module = registry.scene_module(game)
        raise UserError("cannot preview %s levels yet: firmware/%s.py needs a Scene with "
                        "show_level(text)" % (game, module or game + "_game"))
    return cls


def render_level(game, data, scale=4, board="pico-ssd1306"):
    """A Pillow image of one level (bytes) as the glass shows it."""
    from host_tools.emulation.sim import Simulator

    sim = Simulator(board)              # saves in memory: nothing is written
    cls = _game_class(game)
    rt = sim.runtime
    rt.ctx.game_id = game
    screen = cls(rt.ctx)
    check = level_checker(game)
    if check is not None:
        check(data)                     # what the device and `flash` refuse (e.g. too big)
    screen.show_level(level_text(data))
    pause = getattr(screen, "pause", None)  # scenekit.Pause: the level, not the two seconds
    if pause is not None:                   # of "HOLD B: MENU" a new game shows over it
        pause.reminder = 0
    rt.game = rt.screen = screen
    screen.draw(rt.fb)                  # the game's draw code, no tick: no AI move yet
    rt.display.show()                   # driver -> I2C bytes -> controller model
    return sim.image(scale)


def contact_sheet(images, scale, columns=SHEET_COLUMNS):
    from PIL import Image

    w, h = images[0].size
    gap = GAP * scale
    cols = min(columns, len(images))
    rows = (len(images) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * w + (cols - 1) * gap, rows * h + (rows - 1) * gap),
                      (48, 48, 48))
    for i, img in enumerate(images):
        sheet.paste(img, ((i % cols) * (w + gap), (i // cols) * (h + gap)))
    return sheet


def preview(args):
    game, levels = _read_pack(args.file)
    if args.scale < 1 or args.scale > 32:
        raise UserError("--scale must be 1..32, got %d" % args.scale)
    if args.index is None:
        indices = list(range(len(levels)))
    else:
        if not 0 <= args.index < len(levels):
            raise UserError("--index %d is out of range: %s holds %s (0..%d)"
                            % (args.index, args.file, plural(len(levels), "level"), len(levels) - 1))
        indices = [args.index]
    _game_class(game)
    images = []
    for i in indices:
        try:
            images.append(render_level(game, levels[i], args.scale))
        except ValueError as exc:      # the game's parser rejected the level
            raise UserError("%s: level %d: %s" % (args.file, i, exc)) from None
    out = Path(args.output)
    image = images[0] if len(images) == 1 else contact_sheet(images, args.scale)
    from host_tools.emulation.sim import save_image
    save_image(image, out)
    print("%s: %s level%s %s -> %s (%dx%d)" % (
        args.file, game, "" if len(indices) == 1 else "s",
        indices[0] if len(indices) == 1 else "0..%d" % (len(levels) - 1),
        out, image.size[0], image.size[1]))
    return 0
