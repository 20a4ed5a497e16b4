"""Flip Junqi head-to-head over the link cable (linkplay.py runs it): the same
face-down deal on both handhelds (junqi_flip.FlipGame of the shared seed),
each flip and move played on both.  The field, the cursor, picking up a piece
and its routes are the solo game's (junqi_game's FieldView and PlayScreen,
whose scene this match stands in for); a move is applied at once on both, the
last move's cells marked.  Player 0 (the side that moves first) flips first;
the first flip gives the colours, as in the solo game.
"""

import junqi_board as jb
import junqi_flip as jf
import junqi_game as jg
import link
import linkmatch
import scenekit

GAME = "junqi"


class Match(linkmatch.Match):
    GAME = GAME
    # the solo scene's selection and route helpers, on this match's fields
    select = jg.Scene.select
    drop = jg.Scene.drop
    route_preview = jg.Scene.route_preview
    clear_marks = jg.Scene.clear_marks

    def __init__(self, ctx, seed, me):
        self.model = jf.FlipGame(seed=seed)
        self.view = jg.FieldView()
        self.mark = bytearray(jb.CELLS)
        self.steps = bytearray(jb.CELLS)
        self.path = bytearray(jb.CELLS)
        self.path_len = 0
        self.cursor = 27
        self.sel = jb.NONE
        self.frame = 0
        self.made = linkmatch.NO_MOVE
        self.note_ticks = 0                  # the solo game's colours note: not shown here
        # the solo game's B controls (PlayScreen draws their reminder); here B is
        # linkplay's, so the reminder stays off and the pause menu never opens
        self.pause = scenekit.Pause(())
        self.labels = ("ME", "P2") if me == 0 else ("P1", "ME")
        self.screen = jg.PlayScreen(self)
        linkmatch.Match.__init__(self, ctx, seed, me)

    def reset(self):
        self.model.reset(self.seed)
        self.drop()

    def legal(self, move):
        return self.model.is_legal(move)

    def apply(self, move):
        ev = self.model.apply(move)
        if ev == jf.EV_WIN or ev == jf.EV_LOSE or ev == jf.EV_TRADE:
            self.ctx.beep(300 + 200 * ev, 40)

    def moved(self):
        self.drop()

    def to_move(self):
        return self.model.to_move

    def winner(self):
        w = self.model.winner
        return linkmatch.PLAYING if w == jf.NOBODY else w

    def state_hash(self):
        m = self.model
        crc = link.crc16(m.occ, 0, jb.CELLS)
        crc = link.crc16(m.kind, 0, jb.CELLS, crc)
        crc = link.crc16(m.colour, 0, jb.CELLS, crc)
        return crc ^ m.to_move

    def start_move(self, move):
        # (PlayScreen calls this when the player flips or moves)
        self.made = move

    def act(self, ctx, may_move):
        self.frame += 1
        self.made = linkmatch.NO_MOVE
        if may_move and self.model.to_move == self.me:
            self.screen.act(ctx)
        else:
            self.screen.move_cursor(ctx.buttons)
        return self.made

    def draw(self, fb):
        self.screen.draw(fb)
