"""Flip Junqi rules, the AI, and the `junqi` host commands."""

import json

import pytest

import junqi_ai as ja
import junqi_board as jb
import junqi_flip as jf
from clirun import run_cli
from host_tools.commands.junqi_cmd import tournament

C = jb.parse_cell


def empty_game(**kw):
    g = jf.FlipGame(seed=1, **kw)
    for c in range(60):
        g.occ[c] = 0
        g.colour[c] = jf.NOBODY
    for i in range(24):
        g.pool[i] = 0
    g.hidden = 0
    g.player_colour[0] = 0
    g.player_colour[1] = 1
    return g


def put(g, name, colour, kind, hidden=False):
    c = C(name)
    g.kind[c] = kind
    g.colour[c] = colour
    g.occ[c] = jf.HIDDEN if hidden else colour + 1
    if hidden:
        g.pool[colour * 12 + kind] += 1
        g.hidden += 1


def test_combat_table():
    assert jf.combat(11, 10) == jf.ATTACKER_WINS
    assert jf.combat(4, 4) == jf.BOTH_DIE
    assert jf.combat(4, 5) == jf.DEFENDER_WINS
    assert jf.combat(jf.BOMB, 11) == jf.BOTH_DIE
    assert jf.combat(11, jf.BOMB) == jf.BOTH_DIE
    assert jf.combat(jf.ENGINEER, jf.MINE) == jf.ATTACKER_WINS
    assert jf.combat(11, jf.MINE) == jf.DEFENDER_WINS
    assert jf.combat(jf.BOMB, jf.MINE) == jf.BOTH_DIE
    assert jf.combat(jf.ENGINEER, jf.FLAG) == jf.ATTACKER_WINS


def test_deal_is_complete_and_deterministic():
    g = jf.FlipGame(seed=42)
    assert g.hidden == 50
    cells = [c for c in range(60) if g.occ[c] == jf.HIDDEN]
    assert len(cells) == 50 and all(jb.KIND[c] != jb.CAMP for c in cells)
    for col in range(2):
        counts = [0] * 12
        for c in cells:
            if g.colour[c] == col:
                counts[g.kind[c]] += 1
        assert tuple(counts) == jf.COUNTS and sum(counts) == 25
    h = jf.FlipGame(seed=42)
    assert bytes(h.kind) == bytes(g.kind) and bytes(h.colour) == bytes(g.colour)
    assert bytes(jf.FlipGame(seed=43).kind) != bytes(g.kind)


def test_first_flip_decides_colours_and_turns_alternate():
    g = jf.FlipGame(seed=5)
    assert g.legal_moves() == 50  # only flips before colours are known
    c = next(c for c in range(60) if g.occ[c] == jf.HIDDEN)
    assert g.apply(c * 65) == jf._EV_FLIP
    assert g.player_colour[0] == g.colour[c]
    assert g.player_colour[1] == 1 - g.colour[c]
    assert g.to_move == 1 and g.hidden == 49
    assert g.pool[g.colour[c] * 12 + g.kind[c]] == jf.COUNTS[g.kind[c]] - 1


def test_moves_attacks_and_hidden_pieces():
    g = empty_game()
    put(g, "B0", 0, 8)           # our brigade commander on the railway
    put(g, "F0", 1, 7)           # their regiment commander down the column
    put(g, "B2", 1, 4, hidden=True)
    put(g, "C1", 1, 4)           # in a camp: cannot be attacked
    g.legal_moves(0)
    moves = {(m >> 6, m & 63) for m in g.moves[:g.nmoves]}
    assert (C("B2"), C("B2")) in moves            # flipping is a move
    assert (C("B0"), C("F0")) in moves            # attack along the railway
    assert (C("B0"), C("B2")) not in moves        # face-down pieces cannot be attacked
    assert (C("B0"), C("C1")) not in moves        # camp protects
    assert not g.is_legal(C("F0") * 64 + C("E0"))  # not our piece
    assert g.apply(C("B0") * 64 + C("F0")) == jf.EV_WIN
    assert g.occ[C("F0")] == 1 and g.occ[C("B0")] == 0 and g.kind[C("F0")] == 8


def test_mine_bomb_and_flag():
    g = empty_game()
    put(g, "K0", 0, jf.ENGINEER)
    put(g, "K2", 1, jf.MINE)
    put(g, "F4", 0, 10)
    put(g, "G4", 1, jf.BOMB)
    put(g, "L0", 1, jf.FLAG)
    put(g, "A0", 0, jf.FLAG)
    put(g, "A4", 1, 5)
    assert g.apply(C("F4") * 64 + C("G4")) == jf.EV_TRADE
    assert g.occ[C("F4")] == 0 and g.occ[C("G4")] == 0
    g.apply(C("A4") * 64 + C("B4"))
    assert g.apply(C("K0") * 64 + C("K2")) == jf.EV_WIN  # engineer removes the mine
    g.apply(C("B4") * 64 + C("B3"))
    assert g.winner == jf.NOBODY
    g.apply(C("K2") * 64 + C("K1"))
    g.apply(C("B3") * 64 + C("B2"))
    g.apply(C("K1") * 64 + C("K0"))
    g.apply(C("B2") * 64 + C("B3"))
    assert g.apply(C("K0") * 64 + C("L0")) == jf.EV_WIN
    assert g.winner == 0


def test_no_legal_move_loses_and_variant_switch():
    g = empty_game()
    put(g, "B0", 0, 5)
    put(g, "L0", 1, jf.FLAG)
    put(g, "L4", 1, jf.MINE)
    put(g, "A4", 1, 4)
    g.to_move = 1
    g.apply(C("A4") * 64 + C("B4"))
    g.apply(C("B0") * 64 + C("B4"))   # takes their last movable piece
    assert g.winner == 0              # blue has only a mine and the flag left
    g = empty_game(mines_guard_flag=True)
    put(g, "K1", 0, 5)
    put(g, "L1", 1, jf.FLAG)
    put(g, "A4", 1, jf.MINE)
    assert not g.is_legal(C("K1") * 64 + C("L1"))
    g.alive[1 * 12 + jf.MINE] = 0
    assert g.is_legal(C("K1") * 64 + C("L1"))


def test_quiet_limit_draw():
    g = empty_game(quiet_limit=4)
    put(g, "B0", 0, 5)
    put(g, "K0", 1, 5)
    put(g, "A0", 0, jf.FLAG)
    put(g, "L0", 1, jf.FLAG)
    for m in ("B0 B1", "K0 K1", "B1 B0", "K1 K0"):
        a, b = m.split()
        g.apply(C(a) * 64 + C(b))
    assert g.winner == jf.DRAW


def test_ai_takes_the_flag_and_guards_its_own():
    g = empty_game()
    put(g, "B0", 0, jf.ENGINEER)
    put(g, "K4", 1, jf.FLAG)
    put(g, "A0", 0, jf.FLAG)
    put(g, "L0", 1, 6)
    ai = ja.AI(seed=1)
    assert ai.choose(g) == C("B0") * 64 + C("K4")   # engineer raid along the railway
    g = empty_game()
    put(g, "B1", 0, jf.FLAG)
    put(g, "F1", 1, 6)          # reaches B1? no: F1 -> E1 -> ... one step only
    put(g, "B4", 1, 6)          # runs along row B to B2, next to the flag
    put(g, "K4", 0, 9)          # our division can take it along column 4 + row B
    put(g, "L2", 1, jf.FLAG)
    put(g, "L4", 1, jf.MINE)
    ai = ja.AI(seed=2)
    m = ai.choose(g)
    assert m == C("K4") * 64 + C("B4")


def test_ai_never_reads_hidden_identities():
    g1 = jf.FlipGame(seed=9)
    ai = ja.AI(seed=4)
    rp = ja.RandomPlayer(seed=5)
    for _ in range(30):
        g1.apply(ai.choose(g1) if g1.to_move == 0 else rp.choose(g1))
    # swap two face-down pieces of different kinds: the AI's choice must not change
    hidden = [c for c in range(60) if g1.occ[c] == jf.HIDDEN]
    a, b = next((a, b) for a in hidden for b in hidden
                if (g1.kind[a], g1.colour[a]) != (g1.kind[b], g1.colour[b]))
    ai1 = ja.AI(seed=8)
    m1 = ai1.choose(g1)
    g1.kind[a], g1.kind[b] = g1.kind[b], g1.kind[a]
    g1.colour[a], g1.colour[b] = g1.colour[b], g1.colour[a]
    ai2 = ja.AI(seed=8)
    assert ai2.choose(g1) == m1


def test_small_tournament():
    res = tournament(20, 7)
    assert res["games"] == 20 and res["wins"] + res["losses"] + res["draws"] == 20
    assert res["wins"] >= 16


def test_mines_guarding_the_flag_makes_games_longer_and_the_stronger_ai_win_more():
    """The handheld's default rule, measured as docs/junqi.md does it (there
    with 400 games): the full AI against the easy one, with and without."""
    off = tournament(20, 7, opponent="easy")
    on = tournament(20, 7, opponent="easy", mines_guard_flag=True)
    assert (off["mines_guard_flag"], on["mines_guard_flag"]) == (False, True)
    assert on["mean_plies"] > 2 * off["mean_plies"]
    assert on["wins"] >= off["wins"] + 5 and on["losses"] < off["losses"]


def test_easy_ai_is_weaker_than_the_full_one():
    """EASY on the handheld: still plays whole legal games and beats a random
    player mostly, but loses clearly more often to the full AI."""
    easy = tournament(40, 7, ai="easy")
    assert easy["games"] == 40 and easy["wins"] >= 30
    h2h = tournament(60, 3, opponent="easy")
    assert h2h["wins"] >= h2h["losses"] + 12
    g = jf.FlipGame(seed=5)
    ai = ja.AI(seed=6, easy=True)
    for _ in range(12):
        m = ai.choose(g)
        n = g.legal_moves()
        assert m in [g.moves[i] for i in range(n)]
        g.apply(m)


@pytest.mark.parametrize("easy", [False, True])
def test_vm_plays_the_same_game(vm, easy):
    def host():
        g = jf.FlipGame(seed=21)
        ai = ja.AI(seed=2, easy=easy)
        rp = ja.RandomPlayer(seed=3)
        seq = []
        for _ in range(24):
            m = ai.choose(g) if g.to_move == 0 else rp.choose(g)
            seq.append(m)
            g.apply(m)
        return seq, bytes(g.occ)
    res = vm('''
import junqi_flip as jf, junqi_ai as ja
g = jf.FlipGame(seed=21)
ai = ja.AI(seed=2, easy=%r)
rp = ja.RandomPlayer(seed=3)
seq = []
for _ in range(24):
    m = ai.choose(g) if g.to_move == 0 else rp.choose(g)
    seq.append(m)
    g.apply(m)
emit('g', (seq, bytes(g.occ)))
''' % easy)
    assert res['g'] == host()


# --- host commands -------------------------------------------------------------------
def test_cli_route_json(capsys):
    code, out, _ = run_cli(["junqi", "route", "B1", "K3", "--engineer",
                           "--occupied", "B2", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {"steps": 13, "path": ["B1", "B0", "C0", "D0", "E0", "F0", "G0",
                                                     "H0", "I0", "J0", "K0", "K1", "K2", "K3"]}
    code, out, _ = run_cli(["junqi", "route", "B1", "K3", "--occupied", "B2", "--json"], capsys)
    assert json.loads(out) == {"steps": None}
    code, out, _ = run_cli(["junqi", "route", "a1", "b1", "--json"], capsys)
    assert json.loads(out) == {"steps": None}          # headquarters never move
    code, out, _ = run_cli(["junqi", "route", "B0", "B4"], capsys)
    assert out.strip() == "4 steps: B0 B1 B2 B3 B4"


@pytest.mark.parametrize("argv", [
    ("junqi", "route", "Z1", "B1"),
    ("junqi", "route", "B1", "B9"),
    ("junqi", "route", "B1", "B2", "--occupied", "B3,XX"),
    ("junqi", "tournament", "--games", "0"),
])
def test_cli_bad_input(capsys, argv):
    code, out, err = run_cli(list(argv), capsys)
    assert code == 2 and err.startswith("error:") and "Traceback" not in err


def test_cli_tournament(capsys):
    code, out, _ = run_cli(["junqi", "tournament", "--games", "4", "--seed", "2", "--json"], capsys)
    res = json.loads(out)
    assert code == 0 and res["games"] == 4 and 0 <= res["win_rate"] <= 1
    assert (res["ai"], res["opponent"]) == ("full", "random")
    code, out, _ = run_cli(["junqi", "tournament", "--games", "4", "--ai", "easy",
                           "--opponent", "full"], capsys)
    assert code == 0 and out.startswith("easy AI vs full AI: 4 games")
    code, out, _ = run_cli(["junqi", "tournament", "--games", "2", "--seed", "2",
                           "--mines-guard-flag", "--json"], capsys)
    assert code == 0 and json.loads(out)["mines_guard_flag"] is True
