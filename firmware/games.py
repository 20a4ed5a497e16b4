"""The games, each described once.  Every registry reads GAMES: on the device
the launcher and the level-pack reader, on the laptop `levels`, `solve`,
`bench`, `levels preview` and `flash`.  Adding a game = its firmware modules,
one descriptor here, its tests and its doc page (docs/conventions.md, "Adding
a game").

A descriptor is a tuple; the field names below are its indexes:

ID      save-file and level-pack name (letters, digits, underscore)
TITLE   the launcher's menu line
SCENE   firmware module with ``Game(ctx)``, imported only when the game starts
        (and dropped after); its ``check_level(text)``, if any, is the one
        check of a pack level, shared by the device, `levels` and `flash`
PACK    the game's number in a level-pack header (0: no level packs); a
        number once used is never reused, packs in players' hands carry it
LEVELS  laptop: "module:function" adding the `levels ID` generator, or None
SOLVE   laptop: "module:function" adding the `solve ...` solver, or None
BENCH   laptop: bench module with ``collect(report)``, or None

The laptop fields are module paths the device never imports: `flash` writes
this file to the device without them (flash.device_games), so they cost the
launcher's resident heap nothing.  Lookups live in the readers
(levelpack on the device, host_tools/registry.py on the laptop), and this
module stays plain data.
"""

ID, TITLE, SCENE, PACK, LEVELS, SOLVE, BENCH = 0, 1, 2, 3, 4, 5, 6

GAMES = (
    ("catmouse", "Cat & Mouse", "catmouse_game", 1,
     "host_tools.levels.levels_catmouse:add_parser",
     "host_tools.commands.solve_cmd:add_grid_parser",
     "host_tools.bench.bench_grid"),
    ("trapcat", "Trap the Cat", "trapcat_game", 3,
     "host_tools.levels.levels_trapcat:add_parser",
     None,
     "host_tools.bench.bench_trapcat"),
    ("junqi", "Flip Junqi", "junqi_game", 0,
     None,
     None,
     "host_tools.bench.bench_junqi"),
    ("klotski", "Klotski", "klotski_game", 2,
     "host_tools.commands.klotski_cmd:add_levels_parser",
     "host_tools.commands.klotski_cmd:add_solve_parser",
     "host_tools.bench.bench_klotski"),
)
