"""Stands for CircuitPython's ``board`` on a Raspberry Pi Pico (GP0..GP29), and for
Blinka's ``board`` on a Raspberry Pi header (D0..D27, SCL = D3, SDA = D2), which
off a Pi has no pins.  A pin is identified by ``id`` (its number); the
simulator's keypad reads levels by that id."""


class Pin:
    def __init__(self, name, id):
        self.name = name
        self.id = id

    def __repr__(self):
        return "board." + self.name


for _n in range(30):
    globals()["GP%d" % _n] = Pin("GP%d" % _n, _n)
for _n in range(28):
    globals()["D%d" % _n] = Pin("D%d" % _n, _n)
SDA = globals()["D2"]
SCL = globals()["D3"]
board_id = "simulated"
