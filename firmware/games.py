"""The game registry: one line per installed game.

Each entry is ``(game_id, title, module)``.  The launcher imports ``module``
only when the game is started (``Game(ctx)`` from it) and drops it from
sys.modules afterwards.  ``game_id`` names the game's save file (letters,
digits, underscore).  Adding a game = its ``<name>_game.py`` + one line here.
"""

GAMES = (
    ("catmouse", "Cat & Mouse", "catmouse_game"),
    ("trapcat", "Trap the Cat", "trapcat_game"),
    ("junqi", "Flip Junqi", "junqi_game"),
    ("klotski", "Klotski", "klotski_game"),
)
