"""My Trischaken net from the three seats' paranoid values, exact and expected.

See :class:`TrischakenNets`; the values come from the Trischaken solver
(:mod:`tarock_solver.solver.trischaken`) or its evaluator
(:mod:`tarock_solver.estimate.trischaken`).
"""

from __future__ import annotations

import numpy as np

from ..rules import Rules
from ..scoring import score_trischaken

__all__ = ["TrischakenNets"]


#: Draws of the three seats' evaluator errors behind a Trischaken world's expected net:
#: Draws of the three seats' evaluator errors behind a Trischaken world's expected net:
#: fixed, so the expectation is a function of the estimates alone (a control variate).
_TRISCHAKEN_DRAWS = 128


class TrischakenNets:
    """My Trischaken net from the three seats' paranoid values.

    The paranoid value of a seat is the fewest card points he can be held to when the
    other two play together against him; the three are three separate worst cases
    (they add up to more than the points in play).  Each is taken as its seat's
    result, so the seat with the highest value is the loser, a value of 0 took no
    trick, and ties are ties: symmetric in the seats, so the nets add up to 0 as the
    game's do.  (One seat's value against an even split of the rest would make most
    seats the loser: a seat is held to half the points in play on average.)"""

    def __init__(self, rules: Rules, me: int) -> None:
        self.rules, self.me = rules, me
        self._cache: dict[tuple[int, ...], float] = {}
        rng = np.random.default_rng(0x7215)
        self._z = rng.standard_normal((_TRISCHAKEN_DRAWS, 3))
        self._sd: float | None = None

    def net(self, values: tuple[int, ...]) -> float:
        """My net when the seats' results are ``values`` (card points F, M, R)."""
        order = sorted(set(values))
        # only the order, the ties and who is at 0 matter: a small pattern, scored once
        key = tuple(order.index(v) + (1 if order[0] > 0 else 0) for v in values)
        hit = self._cache.get(key)
        if hit is None:
            takers = [s for s in range(3) if key[s] > 0]
            tricks = [16 // len(takers) + (1 if takers.index(s) < 16 % len(takers) else 0)
                      if s in takers else 0 for s in range(3)]
            hit = float(score_trischaken(self.rules, key, tricks).nets[self.me])
            self._cache[key] = hit
        return hit

    def expected(self, estimates: np.ndarray, in_play: int) -> float:
        """E[my net] when each seat's value is its estimate plus the evaluator's error
        (normal, its held-out SD, rounded and clipped to 0 … in play)."""
        if self._sd is None:
            from ..estimate.trischaken import load_trischaken_evaluator

            self._sd = float(load_trischaken_evaluator().error_sd)
        v = np.clip(np.floor(np.asarray(estimates)[None, :] + self._sd * self._z + 0.5),
                    0, in_play).astype(np.int64)
        return float(np.mean([self.net((int(a), int(b), int(c))) for a, b, c in v]))
