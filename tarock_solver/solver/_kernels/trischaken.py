"""The Trischaken search: one seat's card points when the other two play against him.

A node's value is the card points seat ``seat`` takes from it on, the current trick
included (nominal sum − 2 per trick he wins: every pile is whole tricks, so its thirds
are three times this).  The seat minimises them; the two others together maximise
them, so this is a zero-sum game with the paranoid value (docs/SOLVER_NOTES.md,
Trischaken).  Moves follow the Trischaken rules (RULES.md 8): legal cards, then the
must-beat filter, then the Pagat filter, each skipped when it would leave nothing;
``rules`` switches the filters (:data:`MUST_BEAT`, :data:`PAGAT_LAST`).

The card-point loop (:mod:`.search`) is built around a declarer who maximises and
bounds about the tricks he wins, so this objective has a loop of its own; it reuses
the card rules (:mod:`.play`), the equivalent cards, rank-only keys and point shifts
(:mod:`.keys`), the table layout and merging of the card-point table
(:mod:`.cardpoint`), the counters and budgets (:mod:`.stats`, :mod:`.clock`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import clz_nb, ctz_nb, pdep_nb, popcount_nb
from .cardpoint import RANK_WORDS, TT_COLUMNS, _merge_data, remaining_points
from .clock import cycles
from .keys import (
    _drop_equivalent,
    _equal_neighbours,
    _hash,
    _last_card_representatives,
    _point_shift,
    _rank_key,
)
from .play import NOM, TAROCKS, _above, _beats, _bit, _follow_mask, _high, _nominal_sum
from .search import CLOCK_EVERY, KEY_VALID, MAXMOVES, MAXPLY, _prefetch
from .stats import (
    ST_ABORTED,
    ST_CUT_FIRST,
    ST_DEADLINE,
    ST_LIMIT,
    ST_NODES,
    ST_QB_CUTS,
    ST_TT_CUTS,
    ST_TT_HITS,
)

__all__ = ["MUST_BEAT", "PAGAT_LAST", "TT_COLUMNS", "legal_cards", "mtd_value",
           "remaining_points", "search"]

#: Rule bits of the ``rules`` argument: must beat, Pagat only as the last tarock.
MUST_BEAT, PAGAT_LAST = 1, 2
#: The Pagat's bit (card 0), which keeps its identity under :data:`PAGAT_LAST`.
_PAGAT_BIT = 1
#: Smallest hand at a trick start that is probed and stored in the table.
TT_MIN_CARDS = 2
_NO_LIMIT = np.int64(1) << np.int64(62)
_INF = 1000

# One stack frame per card played: mover, trick position, leader, winning card/seat
# before the mover plays, card tried, window, best value and move so far, points the
# seat banks by the trick this move completes, moves and the next one's index, store
# flag, node count at entry, table key and line, the ordered moves as packed sort keys.
FRAME = np.dtype([(f, np.int64) for f in (
    "mover", "pos", "lead", "wcard", "wseat", "card", "al", "be", "best", "bmove", "gain",
    "nm", "mi", "store", "nstart", "k0", "k1", "tslot")]
    + [("mv", np.int64, (MAXMOVES,))])


# ----------------------------------------------------------------- rules

@njit(cache=True, inline="always")
def _beaters(w):
    """Mask of every card that beats ``w``."""
    return _above(w) | (TAROCKS if w >= 22 else 0)


@njit(cache=True, inline="always")
def _moves(hand, led, w, rules):
    """Trischaken legal cards of ``hand`` (``led`` -1: leading; ``w``: the card winning
    the trick so far)."""
    legal = _follow_mask(hand, led)
    if led >= 0 and rules & MUST_BEAT:
        beating = legal & _beaters(w)
        if beating:
            legal = beating
    if rules & PAGAT_LAST and legal & _PAGAT_BIT and (hand & TAROCKS) != _PAGAT_BIT:
        without = legal & ~np.int64(_PAGAT_BIT)
        if without:
            legal = without
    return legal


# ----------------------------------------------------------------- quick bounds

@njit(cache=True, inline="always")
def _bounds(hs, ha, hb, rest):
    """(least, most) card points the seat with hand ``hs`` takes from a trick start on,
    against ``ha`` and ``hb``, with ``rest`` points still in play.

    A tarock of his above every tarock of the others wins the trick it is played to,
    worth at least its own value (two more cards of at least 1, minus 2).  A tarock of
    theirs above all of his wins a trick he does not take; ``na`` and ``nb`` such cards
    of the two fall into K >= max(na, nb) tricks, which hold 3K cards, so they are worth
    at least their values + (3K − na − nb) − 2K >= their values − min(na, nb).
    """
    ts = hs & TAROCKS
    to = (ha | hb) & TAROCKS
    top = ts
    if to:
        top = ts & ~((np.int64(2) << _high(to)) - 1)
    lo = _nominal_sum(top)
    sa = ha & TAROCKS
    sb = hb & TAROCKS
    if ts:
        above = ~((np.int64(2) << _high(ts)) - 1)
        sa &= above
        sb &= above
    na = popcount_nb(sa)
    nb = popcount_nb(sb)
    hi = rest - (_nominal_sum(sa | sb) - (na if na < nb else nb))
    return lo, hi


# ----------------------------------------------------------------- move ordering

@njit(cache=True, inline="always")
def _will_beat(f, w, must_beat):
    """Will a player with legal cards ``f`` head ``w``: he has to (must beat), or all his
    cards do (without the rule he is assumed to beat only when forced)."""
    b = f & _beaters(w)
    if must_beat:
        return b != 0
    return b != 0 and b == f


@njit(cache=True, inline="always")
def _score(c, s, p, seat, h, led, w, ws, must_beat):
    """Ordering score of card ``c`` played by ``s`` at trick position ``p`` (higher first).

    Each side first tries the cards after which the trick looks like going its way
    (to another player for the seat, to the seat for the others), the most valuable
    first (points onto the trick); then the others, the cheapest first.
    """
    if p == 0:
        f1 = _follow_mask(h[(s + 1) % 3], c)
        f2 = _follow_mask(h[(s + 2) % 3], c)
        if s == seat:
            good = _will_beat(f1, c, must_beat) or _will_beat(f2, c, must_beat)
        else:
            fs = f1 if (s + 1) % 3 == seat else f2
            good = _will_beat(fs, c, must_beat)
    else:
        if _beats(c, w):
            nw = c
            nws = s
        else:
            nw = w
            nws = ws
        if p == 2:
            seat_wins = nws == seat
        else:
            t = (s + 1) % 3
            cb = _will_beat(_follow_mask(h[t], led), nw, must_beat)
            seat_wins = cb if t == seat else (nws == seat and not cb)
        good = seat_wins != (s == seat)
    if good:
        return 2000 + 10 * NOM[c]
    return 1000 - 10 * NOM[c]


# ----------------------------------------------------------------- the loop's parts

@njit(cache=True, inline="always")
def _winning(tcards, ntrick, leader):
    """(card, seat) winning the first ``ntrick`` (1..2) cards of a trick."""
    w = tcards[0]
    ws = leader
    for i in range(1, ntrick):
        if _beats(tcards[i], w):
            w = tcards[i]
            ws = (leader + i) % 3
    return w, ws


@njit(cache=True, inline="always")
def _node_limits(stats):
    """(node budget left, first node count at which to look again): a seconds budget
    brings the second forward to the next reading of the clock."""
    budget = stats[ST_LIMIT] - stats[ST_NODES] if stats[ST_LIMIT] > 0 else _NO_LIMIT
    if stats[ST_DEADLINE] > 0 and budget > CLOCK_EVERY:
        return budget, np.int64(CLOCK_EVERY)
    return budget, budget


@njit(cache=True, inline="always")
def _probe(flat, slot, k0, k1, allc):
    """Both entries of a table line may hold this rank structure (with other cards in
    play): (tightest shifted lower bound, upper bound, stored best card or -1, hits)."""
    blo = -_INF
    bup = _INF
    ttmove = -1
    hits = 0
    for r3 in range(slot, slot + 2 * RANK_WORDS, RANK_WORDS):
        if flat[r3] != k0 or flat[r3 + 1] != k1:
            continue
        hits += 1
        ddn, ddu = _point_shift(flat[r3 + 3], allc)
        data = flat[r3 + 2]
        blo = max(blo, (data & 255) - ddn)
        bup = min(bup, ((data >> 8) & 255) + ddu)
        rank = (data >> 16) & 255
        if ttmove < 0 and rank < 64:
            # the best card is kept as a rank among the cards in play
            x = pdep_nb(_bit(rank), allc)
            if x:
                ttmove = ctz_nb(x)
    return blo, bup, ttmove, hits


@njit(cache=True, inline="always")
def _store(flat, slot, k0, k1, allp, lo, up, rank, work):
    """Keep bounds ``lo``..``up``, the best card's ``rank`` (255: none) and the ``work``
    (log2 of the nodes) of a trick start with cards ``allp`` in its table line."""
    for r3 in range(slot, slot + 2 * RANK_WORDS, RANK_WORDS):
        if flat[r3] == k0 and flat[r3 + 1] == k1 and flat[r3 + 3] == allp:
            lo, up, rank, work = _merge_data(flat[r3 + 2], lo, up, rank, work)
            target = r3
            break
    else:
        # the first entry keeps the costlier search, the second takes the newcomer
        # (or the entry the newcomer displaces)
        target = slot + RANK_WORDS
        if flat[slot] == 0 or work >= (flat[slot + 2] >> 24) & 255:
            flat[slot + RANK_WORDS:slot + 2 * RANK_WORDS] = flat[slot:slot + RANK_WORDS]
            target = slot
    flat[target] = k0
    flat[target + 1] = k1
    flat[target + 2] = lo | (up << 8) | (rank << 16) | (work << 24)
    flat[target + 3] = allp


@njit(cache=True, inline="always")
def _child_window(minimising, al, be, best, g):
    """The window of a child after a move that banks ``g`` for the seat: the mover's
    best so far narrows his own side of it."""
    if minimising:
        return al - g, min(be, best) - g
    return max(al, best) - g, be - g


# ----------------------------------------------------------------- the search

@njit(cache=True, nogil=True)
def search(hands, leader, tcards, ntrick, seat, rules, alpha, beta, tt, stats):
    """Fail-soft alpha-beta value of a position for the window (alpha, beta).

    ``hands``: int64[3] masks (cards played to the current trick are not in them);
    ``leader``: the seat who led the current trick; ``tcards``: int64 array whose
    first ``ntrick`` (0..2) entries are its cards; ``seat``: the seat whose card
    points are the value (he minimises, the others maximise); ``rules``: the bits
    :data:`MUST_BEAT`, :data:`PAGAT_LAST`; ``tt``: a table of :data:`TT_COLUMNS`
    columns.  The result v satisfies: v <= alpha -> value <= v; v >= beta -> value
    >= v; otherwise value == v.  ``stats`` counters are incremented and its budgets
    obeyed (:mod:`.stats`); a search that gives up stores nothing.
    """
    h = np.empty(3, np.int64)
    h[0] = hands[0]
    h[1] = hands[1]
    h[2] = hands[2]
    fr = np.zeros(MAXPLY, FRAME)
    flat = tt.reshape(tt.size)
    rk_mask = np.int64(tt.shape[0] - 1)
    must_beat = (rules & MUST_BEAT) != 0
    # the Pagat keeps its identity when its play is restricted
    keep = np.int64(_PAGAT_BIT) if rules & PAGAT_LAST else np.int64(0)
    flags = (np.int64(seat) << 56) | (np.int64(rules & 3) << 59) | KEY_VALID
    opp_a = (seat + 1) % 3
    opp_b = (seat + 2) % 3

    # the root: frame ntrick, below it the cards already played to the trick
    d0 = ntrick
    fr[d0].al = alpha
    fr[d0].be = beta
    fr[d0].lead = leader
    fr[d0].pos = ntrick
    fr[d0].mover = (leader + ntrick) % 3
    for i in range(ntrick):
        fr[i].card = tcards[i]
    if ntrick:
        fr[d0].wcard, fr[d0].wseat = _winning(tcards, ntrick, leader)

    # counters in locals until the end, as in the card-point loop
    n_qb = n_hit = n_ttc = nodes = 0
    cuts = np.zeros(6, np.int64)
    budget, limit = _node_limits(stats)
    d = d0
    v = 0
    ENTER, NEXT, RETURN = 0, 1, 2
    state = ENTER
    while True:
        if state == ENTER:
            nodes += 1
            if nodes > limit:
                # the clock is read once per CLOCK_EVERY nodes (another thread may
                # move the deadline to now)
                if nodes > budget or cycles() > stats[ST_DEADLINE]:
                    stats[ST_ABORTED] = 1
                    v = -1
                    break
                limit = nodes + CLOCK_EVERY if budget - nodes > CLOCK_EVERY else budget
            p = fr[d].pos
            s = fr[d].mover
            fr[d].store = 0
            ttmove = -1
            if p == 0:
                fr[d].nstart = nodes
                n = popcount_nb(h[s])
                if n == 0:
                    v = 0
                    state = RETURN
                    continue
                if n == 1:
                    # the last trick: every card is forced
                    c0 = ctz_nb(h[s])
                    c1 = ctz_nb(h[(s + 1) % 3])
                    c2 = ctz_nb(h[(s + 2) % 3])
                    w = c0
                    ws = s
                    if _beats(c1, w):
                        w = c1
                        ws = (s + 1) % 3
                    if _beats(c2, w):
                        ws = (s + 2) % 3
                    v = NOM[c0] + NOM[c1] + NOM[c2] - 2 if ws == seat else 0
                    state = RETURN
                    continue
                allc = h[0] | h[1] | h[2]
                # rank-only key: the Pagat's presence joins it when the Pagat-last
                # rule makes the lowest tarock special
                q0, q1 = _rank_key(h[0], h[1], h[2])
                qk0 = q0 | (np.int64(s) << 54) | flags | ((allc & keep) << 58)
                slot = 2 * RANK_WORDS * (_hash(qk0 ^ np.int64(0x5bd1e995), q1, np.int64(0))
                                         & rk_mask)
                _prefetch(flat, slot)
                rest = _nominal_sum(allc) - 2 * n
                lo, hi = _bounds(h[seat], h[opp_a], h[opp_b], rest)
                if lo >= fr[d].be:
                    v = lo
                    n_qb += 1
                    state = RETURN
                    continue
                if hi <= fr[d].al:
                    v = hi
                    n_qb += 1
                    state = RETURN
                    continue
                if n >= TT_MIN_CARDS:
                    blo, bup, ttmove, hits = _probe(flat, slot, qk0, q1, allc)
                    n_hit += hits
                    # equal bounds are exact: closed at once (never a window alpha == beta)
                    if blo >= fr[d].be or bup <= fr[d].al or blo == bup:
                        v = blo if blo >= fr[d].be else bup
                        n_ttc += 1
                        state = RETURN
                        continue
                    fr[d].k0 = qk0
                    fr[d].k1 = q1
                    fr[d].tslot = slot
                    fr[d].store = 1

            # move generation: Trischaken-legal cards, one per equivalence class, ordered
            hand = h[s]
            led = fr[d - p].card if p > 0 else -1
            legal = _moves(hand, led, fr[d].wcard, rules)
            in_play = h[0] | h[1] | h[2]
            if legal & (legal - 1) == 0:
                m = legal
            elif p == 2:
                m = _last_card_representatives(legal, in_play, fr[d].wcard, keep)
            else:
                for i in range(p):
                    in_play |= _bit(fr[d - p + i].card)
                m = _drop_equivalent(legal, in_play, _equal_neighbours(in_play, keep))
            mv = fr[d].mv
            cnt = 0
            while m:
                c = ctz_nb(m)
                m &= m - 1
                if c == ttmove:
                    sc = np.int64(1) << 40
                else:
                    sc = _score(c, s, p, seat, h, led, fr[d].wcard, fr[d].wseat, must_beat)
                # the score above 63 - card: a descending insertion sort
                sk = (sc << 6) | (63 - c)
                j = cnt
                while j > 0 and mv[j - 1] < sk:
                    mv[j] = mv[j - 1]
                    j -= 1
                mv[j] = sk
                cnt += 1
            fr[d].nm = cnt
            fr[d].mi = 0
            fr[d].best = _INF if s == seat else -_INF
            fr[d].bmove = -1
            state = NEXT

        if state == NEXT:
            if fr[d].mi < fr[d].nm:
                c = 63 - (fr[d].mv[fr[d].mi] & 63)
                fr[d].mi += 1
                s = fr[d].mover
                p = fr[d].pos
                h[s] ^= _bit(c)
                fr[d].card = c
                if p == 0 or _beats(c, fr[d].wcard):
                    w = c
                    ws = s
                else:
                    w = fr[d].wcard
                    ws = fr[d].wseat
                g = 0
                if p == 2:
                    if ws == seat:
                        g = NOM[fr[d - 2].card] + NOM[fr[d - 1].card] + NOM[c] - 2
                    fr[d + 1].pos = 0
                    fr[d + 1].lead = ws
                    fr[d + 1].mover = ws
                else:
                    fr[d + 1].pos = p + 1
                    fr[d + 1].lead = fr[d].lead
                    fr[d + 1].mover = (s + 1) % 3
                    fr[d + 1].wcard = w
                    fr[d + 1].wseat = ws
                fr[d].gain = g
                fr[d + 1].al, fr[d + 1].be = _child_window(s == seat, fr[d].al, fr[d].be,
                                                           fr[d].best, g)
                d += 1
                state = ENTER
                continue
            v = fr[d].best
        else:
            # RETURN: v is the value of node d; hand it to the parent
            if d == d0:
                break
            d -= 1
            s = fr[d].mover
            h[s] ^= _bit(fr[d].card)
            v += fr[d].gain
            if s == seat:
                if v < fr[d].best:
                    fr[d].best = v
                    fr[d].bmove = fr[d].card
                cut = fr[d].best <= fr[d].al
            else:
                if v > fr[d].best:
                    fr[d].best = v
                    fr[d].bmove = fr[d].card
                cut = fr[d].best >= fr[d].be
            if not cut and fr[d].mi < fr[d].nm:
                state = NEXT
                continue
            v = fr[d].best
            if cut:
                cuts[fr[d].pos + (3 if fr[d].mi > 1 else 0)] += 1

        # node d is finished with value v: store its bounds at trick starts
        state = RETURN
        if fr[d].store:
            lo = 0
            up = 255
            if v <= fr[d].al:
                up = v
            elif v >= fr[d].be:
                lo = v
            else:
                lo = v
                up = v
            # a fail-low node (for its mover) has no best move worth remembering
            fail_low = v >= fr[d].be if fr[d].mover == seat else v <= fr[d].al
            allp = h[0] | h[1] | h[2]
            rank = 255
            if fr[d].bmove >= 0 and not fail_low:
                rank = popcount_nb(allp & (_bit(fr[d].bmove) - 1))
            _store(flat, fr[d].tslot, fr[d].k0, fr[d].k1, allp, lo, up, rank,
                   64 - clz_nb(np.int64(nodes - fr[d].nstart) | 1))

    stats[ST_NODES] += nodes
    stats[ST_QB_CUTS] += n_qb
    stats[ST_TT_HITS] += n_hit
    stats[ST_TT_CUTS] += n_ttc
    for i in range(6):
        stats[ST_CUT_FIRST + i] += cuts[i]
    return v


# ----------------------------------------------------------------- drivers

@njit(cache=True, nogil=True)
def mtd_value(hands, leader, tcards, ntrick, seat, rules, guess, tt, stats, bounds):
    """MTD(f): bounds on the value into ``bounds[0:2]`` (equal: the exact value);
    returns the null-window tests run.

    Each test "value >= b" moves one bound to what its fail-soft result proved; the
    next test is at that result (from ``guess``, or the middle of the range when it
    lies outside).  When the budget runs out the bounds are those of the finished
    tests.
    """
    lower = 0
    upper = remaining_points(hands, ntrick, tcards)
    g = guess if lower <= guess <= upper else (lower + upper) // 2
    tests = 0
    while lower < upper and not stats[ST_ABORTED]:
        b = g if g > lower else lower + 1
        if b > upper:
            b = upper
        tests += 1
        g = search(hands, leader, tcards, ntrick, seat, rules, b - 1, b, tt, stats)
        if stats[ST_ABORTED]:
            break
        if g < b:
            upper = g if g < upper else upper
        else:
            lower = g if g > lower else lower
    bounds[0] = lower
    bounds[1] = upper
    return tests


@njit(cache=True)
def legal_cards(hands, leader, tcards, ntrick, rules):
    """The Trischaken-legal cards of the player to move."""
    if ntrick == 0:
        return _moves(hands[leader], -1, -1, rules)
    w, _ = _winning(tcards, ntrick, leader)
    return _moves(hands[(leader + ntrick) % 3], tcards[0], w, rules)
