"""Board files (boards/NAME.json) on the laptop: the one BOARDS_DIR, read and
checked by the firmware's own boardcfg (what the device accepts)."""

from pathlib import Path

from host_tools.core.fwpath import ROOT  # first: puts firmware/ on sys.path
import boardcfg
from host_tools.core import UserError
from strictjson import loads as json_loads

BOARDS_DIR = ROOT / "boards"


def load_board(name, boards_dir=None):
    """The board file as (dict, raw bytes), checked by ``boardcfg.validate``;
    a missing or invalid file is a UserError naming it."""
    boards_dir = Path(boards_dir or BOARDS_DIR)
    path = boards_dir / (name + ".json")
    if not path.is_file():
        have = sorted(p.stem for p in boards_dir.glob("*.json")) if boards_dir.is_dir() else []
        raise UserError("no board file %s (available: %s)" % (
            path, ", ".join(have) or "none"))
    raw = path.read_bytes()
    try:
        data = json_loads(raw)
    except ValueError as exc:
        raise UserError("board file %s is not valid JSON: %s" % (path, exc)) from None
    if not isinstance(data, dict):
        raise UserError("board file %s must hold a JSON object" % path)
    try:
        boardcfg.validate(data)
    except boardcfg.BoardError as exc:
        raise UserError("board file %s: %s" % (path, exc)) from None
    return data, raw


def board_runtime(name, boards_dir=None):
    """The board file's "runtime", or None when it cannot be read (errors come later)."""
    try:
        data = json_loads((Path(boards_dir or BOARDS_DIR) / (name + ".json")).read_bytes())
        return data.get("runtime") if isinstance(data, dict) else None
    except (OSError, ValueError):
        return None


def boards_for_runtime(runtime, boards_dir=None):
    """Names of the board files that target ``runtime``: a mismatch error points at them."""
    return sorted(p.stem for p in Path(boards_dir or BOARDS_DIR).glob("*.json")
                  if board_runtime(p.stem, boards_dir) == runtime)
