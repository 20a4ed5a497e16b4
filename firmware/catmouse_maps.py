"""Built-in Cat & Mouse boards in the plain-text map format (see catmouse.py).

The first entry is the default 16x8 board; the seed article's two 8x4 worked
examples follow (BFS: 12 moves; A* with terrain: 16 stamina).
"""

LEVELS = (
    ("Garden", """\
C.....g.........
.##.#...##.ww.#.
.#..#.g..#....#.
...gg...........
.#....##.#..#g#.
.#.ww.#..#..#...
...##...g...##..
..........#....M
"""),
    ("Seed BFS", """\
C..#....
..#..#..
..#.....
....#..M
"""),
    ("Seed A*", """\
Cg.#....
.g#..#.g
..#.ww.w
g...#..M
"""),
    ("Courtyard", """\
C...............
.######..######.
.#............#.
.#.gg.####.ww.#.
.#.gg.####.ww.#.
.#............#.
.######..######.
...............M
"""),
    ("Streams", """\
C....w......w...
.##..w..##..w.#.
.#...ww.#...w.#.
.#....w.#..ww...
...##.w....w..#.
.#....ww.##w..#.
.#.gg..w...w....
.......w...w...M
"""),
)


def level_text(index):
    return LEVELS[index][1]
