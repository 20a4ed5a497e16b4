"""Fuzz the device-side pack reader: whatever the bytes, LevelPack either opens
(and then every level reads) or raises LevelPackError, nothing else.

Two parts, >= 100,000 inputs in all: hypothesis drives structured inputs
(random level sets, then field overwrites / byte flips / truncation, with the
CRC recomputed half the time so the checks behind it are reached), and a fast
seeded loop applies random mutations to valid packs."""

import binascii
import io
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import levelpack
from host_tools.core import registry
from levelpack import LevelPack, LevelPackError, build_pack

HYPOTHESIS_EXAMPLES = 1500
LOOP_INPUTS = 100_000


def fix_crc(b):
    if len(b) >= 16:
        levelpack._put_u32(b, 12, binascii.crc32(bytes(b[16:])) & 0xFFFFFFFF)


def exercise(blob):
    """Open and read everything; returns 'ok' or the error's first words."""
    try:
        pack = LevelPack(io.BytesIO(bytes(blob)))
        buf = bytearray(levelpack.MAX_LEVEL_BYTES)
        for i in range(pack.count):
            data = pack.level(i)
            assert 1 <= len(data) <= levelpack.MAX_LEVEL_BYTES
            assert pack.level_into(i, buf) == len(data)
        return "ok"
    except LevelPackError as exc:
        return " ".join(str(exc).split()[:2])


levels_st = st.lists(st.binary(min_size=1, max_size=40), min_size=1, max_size=12)
mutation_st = st.lists(
    st.tuples(st.sampled_from(["set", "flip", "u32", "u16", "cut", "grow"]),
              st.integers(0, 700), st.integers(0, 2 ** 32 - 1)),
    min_size=0, max_size=4)


@settings(max_examples=HYPOTHESIS_EXAMPLES, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(sorted(registry.pack_games())), levels=levels_st,
       mutations=mutation_st, recrc=st.booleans())
def test_fuzz_structured(game, levels, mutations, recrc):
    b = bytearray(build_pack(game, levels))
    for kind, pos, value in mutations:
        pos %= len(b) + 1
        if kind == "set" and pos < len(b):
            b[pos] = value & 0xFF
        elif kind == "flip" and pos < len(b):
            b[pos] ^= 1 << (value & 7)
        elif kind == "u32" and pos + 4 <= len(b):
            levelpack._put_u32(b, pos, value)
        elif kind == "u16" and pos + 2 <= len(b):
            b[pos] = value & 0xFF
            b[pos + 1] = (value >> 8) & 0xFF
        elif kind == "cut":
            del b[pos:]
        elif kind == "grow":
            b.extend(bytes([value & 0xFF]) * (value % 50))
    if recrc:
        fix_crc(b)
    exercise(b)


@given(st.binary(max_size=200))
@settings(max_examples=1000, deadline=None, database=None, derandomize=True)
def test_fuzz_arbitrary_bytes(data):
    exercise(data)
    exercise(b"PZLV\x01" + data)


def test_fuzz_random_mutations():
    rnd = random.Random(20240601)
    bases = [build_pack(g, [bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 30)))
                            for _ in range(rnd.randrange(1, 10))])
             for g in ("catmouse", "klotski", "trapcat") for _ in range(5)]
    outcomes = Counter()
    for n in range(LOOP_INPUTS):
        b = bytearray(bases[n % len(bases)])
        for _ in range(1 + rnd.randrange(3)):
            r = rnd.random()
            if r < 0.45 and b:
                # most damage lands on the header and offset table
                pos = rnd.randrange(min(len(b), 64)) if rnd.random() < 0.8 else rnd.randrange(len(b))
                b[pos] = rnd.randrange(256)
            elif r < 0.7 and len(b) >= 4:
                pos = rnd.randrange(len(b) - 3)
                levelpack._put_u32(b, pos, rnd.choice(
                    (0, 1, 0xFFFFFFFF, 0x7FFFFFFF, rnd.randrange(2 ** 32), rnd.randrange(64))))
            elif r < 0.85:
                del b[rnd.randrange(len(b) + 1):]
            else:
                b.extend(bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 9))))
            if not b:
                break
        if rnd.random() < 0.6:
            fix_crc(b)
        outcomes[exercise(b)] += 1
    # the fuzz reached the checks behind the CRC, and valid packs too
    assert outcomes["ok"] > 100
    kinds = set(k.split()[0] for k in outcomes)
    assert {"checksum", "offset", "level", "the", "bad", "unknown"} <= kinds, outcomes
    assert sum(outcomes.values()) == LOOP_INPUTS
