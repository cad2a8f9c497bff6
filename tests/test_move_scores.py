"""The search's move scores (per-node parts precomputed) equal the readable ones.

:func:`kernel._lead_score` and :func:`kernel._follow_score` state the move
ordering card by card; the kernels call :func:`kernel._lead_score_pre` and
:func:`kernel._follow_score_pre`, which take the parts shared by all moves of
a node from the caller.  Ordering never changes values, so only this test
notices when the two drift apart.
"""

from __future__ import annotations

import numpy as np

from tarock_solver.solver import kernel
from tarock_solver.solver.api import prepare
from tarock_solver.solver.reference import random_position


def test_precomputed_scores_equal_the_readable_ones() -> None:
    rng = np.random.default_rng(5150)
    compared = {0: 0, 1: 0, 2: 0}
    for i in range(3000):
        pos = random_position(rng, 1 + i % 8)
        hands, leader, tcards, ntrick, declarer, birds = prepare(
            pos["hands"], pos["leader"], pos["declarer"], trick=pos["trick"],
            restrictions=pos["restrictions"]).args()
        h = np.array(hands, np.int64)
        s = (leader + ntrick) % 3
        if h[s] == 0:
            continue
        led = int(tcards[0]) if ntrick else -1
        w, ws = led, leader
        for j in range(1, ntrick):
            if kernel._beats(tcards[j], w):
                w, ws = int(tcards[j]), (leader + j) % 3
        legal = int(kernel._follow_mask(h[s], led)) if ntrick else int(h[s])
        is_decl = s == declarer
        ctx = kernel._follow_context(h, s, ntrick, led, is_decl, declarer)
        for c in range(54):
            if not (legal >> c) & 1:
                continue
            if ntrick == 0:
                f1 = kernel._follow_mask(h[(s + 1) % 3], c)
                f2 = kernel._follow_mask(h[(s + 2) % 3], c)
                got = kernel._lead_score_pre(s, c, declarer, f1, f2)
                want = kernel._lead_score(h, s, c, declarer)
            else:
                got = kernel._follow_score_pre(c, ntrick, is_decl, w, ws, declarer, *ctx,
                                               h[declarer])
                want = kernel._follow_score(h, s, c, ntrick, led, w, ws, declarer)
            assert got == want, (pos, c)
            compared[ntrick] += 1
    assert min(compared.values()) > 1000
