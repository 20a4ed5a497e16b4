# The games the handheld lists, each described once by what the device reads:
# the launcher, the runtime's game hand-over and the level-pack reader.  The
# laptop's hooks of each game (level generators, solvers, benches, extra flash
# files) are keyed by the same id in host_tools/core/registry.py; nothing here
# names a laptop module, and `flash` copies this file as it is.
#
# A descriptor is a tuple, read by field name, e.g. ``entry[games.TITLE]``:
#
# ID      save-file and level-pack name (letters, digits, underscore)
# TITLE   the launcher's menu line
# SCENE   firmware module with ``Scene(ctx)``, imported only when the game starts
#         (and dropped after); a game with level packs (PACK not 0) has
#         ``check_level(text)`` there, the one check of a pack level, shared by
#         the device, the web page, `levels` and `flash`
# PACK    the game's number in a level-pack header (0: no level packs); a
#         number once used is never reused, packs in players' hands carry it
#
# LINK is no game: the launcher's "2 Players" line, a scene that plays a game
# against another handheld over the link cable (linkplay.py); its records and
# game in progress are saves of its own ("link", "link/play").
LINK = ("link", "2 Players", "linkplay", 0)

# Plain ints and tuples: a class or a dict per game would cost the launcher's
# resident heap more.  Adding a game: docs/conventions.md, "Adding a game".
# (comments, not a docstring: the launcher imports this module, and a docstring
# stays on the heap of a MicroPython that compiles the source)

ID, TITLE, SCENE, PACK = 0, 1, 2, 3

GAMES = (
    ("catmouse", "Cat & Mouse", "catmouse_game", 1),
    ("trapcat", "Trap the Cat", "trapcat_game", 3),
    ("junqi", "Flip Junqi", "junqi_game", 0),
    ("klotski", "Klotski", "klotski_game", 2),
)
