"""`levels trapcat`: generated layouts parse, pack, are distinct and graded as
their comments say; trapcat.parse_level rejects bad files clearly."""

import json

import pytest

import trapcat
from host_tools.commands import levels_cmd
from host_tools.levels import levels_trapcat
from host_tools.cli import main as cli_main


def test_parse_level_round_trip_and_errors():
    b = trapcat.Board(9)
    b.reset(trapcat.Rng(3), 12)
    size, cells, cat = trapcat.parse_level("; comment\n" + trapcat.level_text(b))
    assert (size, bytes(cells), cat) == (9, bytes(b.cells), b.cat)
    assert trapcat.parse_level(trapcat.level_text(b).encode())[2] == b.cat
    for text, msg in (("", "empty"), ("...\n.C.\n..\n", "line 3: 2 cells"),
                      ("...\n.x.\n...\n", "unexpected"), ("...\n...\n...\n", "no cat"),
                      ("C..\n...\n...\n", "border"), ("###\n#C#\n###\n", "trapped"),
                      ("....\n.CC.\n....\n....\n", "second cat")):
        with pytest.raises(trapcat.LevelError, match=msg):
            trapcat.parse_level(text)


@pytest.mark.slow
def test_generator_writes_graded_distinct_packable_levels(tmp_path, capsys):
    out = tmp_path / "lv"
    code = cli_main(["levels", "trapcat", "--count", "3", "--difficulty", "hard", "--seed", "4",
                     "-o", str(out), "--quiet"])
    assert code in (0, None)
    info = json.loads((out / "pack.json").read_text())
    assert info["game"] == "trapcat" and len(info["levels"]) == 3
    board = trapcat.Board(9)
    keys = set()
    for lv in info["levels"]:
        text = (out / lv["file"]).read_text()
        assert text.startswith("; Trap the Cat 9x9, 12 start blocks, hard")
        size, cells, cat = trapcat.parse_level(text)
        assert size == 9 and cat == board.center and sum(cells) == 12
        # the grade replays: the strong blocker loses to the hard cat and
        # traps the normal cat
        assert levels_trapcat.play(board, cells, "hard", "strong")[0] is False
        assert levels_trapcat.play(board, cells, "normal", "strong")[0] is True
        board.load(cells, board.center)
        for k in levels_trapcat.variants(board):
            assert k not in keys
        keys.update(levels_trapcat.variants(board))
    pack = tmp_path / "t.bin"
    assert cli_main(["levels", "pack", str(out), "-o", str(pack)]) in (0, None)
    game, count, parsed = levels_cmd.check_pack(pack)
    assert (game, count, parsed) == ("trapcat", 3, True)


def test_grade_bands():
    board = trapcat.Board(9)
    board.reset(trapcat.Rng(11), 12)
    g = levels_trapcat.grade(board, bytes(board.cells))
    assert g["difficulty"] in ("easy", "medium", "hard", None)
    if g["difficulty"] == "easy":
        assert g["strong_traps_hard"] and g["greedy_traps_normal"]
    if g["difficulty"] == "hard":
        assert not g["strong_traps_hard"] and g["strong_traps_normal"]
