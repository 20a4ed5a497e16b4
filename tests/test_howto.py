"""The launcher's "how to play" pages: every game has its rules text
(firmware/<id>_rules.py) and it fits the screen; a game without one gets a
one-page note.  The pages themselves are in the goldens (tests/test_sim.py)."""

import importlib

import pytest

import games
import gamectx
import howto
from buttons import A, B, LEFT, RIGHT


@pytest.mark.parametrize("game_id", [g[games.ID] for g in games.GAMES])
def test_every_game_has_rules_that_fit_the_screen(game_id):
    pages = importlib.import_module(game_id + "_rules").PAGES
    assert 3 <= len(pages) <= 9
    for page in pages:
        assert len(page[0]) <= 15, page[0]                 # 8x8 font heading
        assert 2 <= len(page) <= howto.LINES + 1, page[0]
        for line in page[1:]:
            assert len(line) <= 31 and line == line.upper() and line.isascii(), line
    text = " ".join(" ".join(p) for p in pages)
    assert "A:" in text or "A " in text


@pytest.mark.parametrize("game_id", [g[games.ID] for g in games.GAMES])
def test_every_game_shows_the_one_controls_page_second(game_id):
    ctx = gamectx.FakeCtx()
    ctx.game_id = game_id
    g = howto.Scene(ctx)
    assert g.pages[1] is howto.CONTROLS
    assert any("B+A (HOLD B, PRESS A): UNDO" in line for line in howto.CONTROLS)
    page = howto.CONTROLS
    assert len(page[0]) <= 15 and len(page) <= howto.LINES + 1
    assert all(len(line) <= 31 and line == line.upper() for line in page)


def test_the_docs_table_says_what_the_controls_page_says():
    """docs/runtime.md, "Controls": the same words as the page every game shows."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "runtime.md").read_text()
    table = doc[doc.index("## Controls"):]
    table = table[:table.index("\n## ", 1)].upper()
    for words in ("B TAP", "PUT DOWN / CANCEL", "B+A (HOLD B, PRESS A)", "UNDO", "HOLD B",
                  "RESUME", "HINT (IF ANY)", "RESTART", "RULES", "QUIT", "KEPT FOR CONTINUE",
                  "A AGAIN/NEXT", "B BACK"):
        assert words in table, words
        assert words in " ".join(howto.CONTROLS), words


def test_paging_and_a_game_without_rules():
    ctx = gamectx.FakeCtx()
    ctx.game_id = "trapcat"
    g = howto.Scene(ctx)
    n = len(g.pages)
    assert g.page == 0 and g.footer.startswith("1/%d" % n)
    gamectx.press(g, ctx, LEFT)
    assert g.page == 0
    gamectx.press(g, ctx, RIGHT)
    gamectx.press(g, ctx, A)
    for _ in range(n - 3):
        gamectx.press(g, ctx, RIGHT)
    assert g.page == n - 1 and g.footer.startswith("%d/%d" % (n, n))
    assert gamectx.press(g, ctx, A) == "exit"
    assert gamectx.press(g, ctx, B) == "exit"
    ctx.game_id = "nosuchgame"
    g = howto.Scene(ctx)
    assert g.pages == howto.NO_RULES
    assert gamectx.press(g, ctx, A) == "exit"
