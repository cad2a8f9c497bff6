"""Quick bounds at a trick start: what one side surely takes from here on.

Each bound is a proof about every line of play (the docstrings give it), so a
trick start whose bound already decides the search window is settled without
generating a move.  ``tests/test_kernel_bounds.py`` checks every one against
the brute-force reference, each with a negative control that must fail.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import ctz_nb, pext_nb, popcount_nb
from .play import NOM, SUIT_GROUPS, TAROCKS, V2, V3, V4, V5, _bit, _high, _nominal_sum


@njit(cache=True, inline="always")
def _defence_sure_points(h_decl, td, ta, tb):
    """The defenders' half of :func:`_sure_points` (``td``/``ta``/``tb``: the
    three hands' tarocks; at least one defender holds one): their tarocks
    above all of the declarer's win.  K >= max(na, nb) tricks hold them, each
    with one declarer card and 2K - na - nb other defender cards: at least
    the declarer's K cheapest."""
    sa = ta
    sb = tb
    if td:
        above = ~((np.int64(2) << _high(td)) - 1)
        sa &= above
        sb &= above
    na = popcount_nb(sa)
    nb = popcount_nb(sb)
    kmax = na if na > nb else nb
    return _nominal_sum(sa) + _nominal_sum(sb) + _cheapest(h_decl, kmax) - na - nb


@njit(cache=True, inline="always")
def _sure_points(h_decl, h_a, h_b):
    """Card points each side is sure to win with its unbeatable tarocks.

    A tarock above every tarock of the other side wins, for its side, the
    trick it is played to, and that trick is worth at least the card's
    nominal value (the two other cards add at least 1 each, minus 2; for the
    declarer's k tricks each defender gives k distinct cards, at least his k
    cheapest).  Two defender cards may fall into one trick: their K tricks
    (max(na, nb) <= K) hold K declarer cards and 2K - na - nb other cards.
    Returns (declarer's sure points, defenders' sure points).
    """
    return _side_bounds(h_decl, h_a, h_b, False)


@njit(cache=True, inline="always")
def _beatable(lo, hi):
    """Most tarocks of ``lo`` that distinct higher tarocks of ``hi`` can beat.

    Greedy matching, which is maximum here: each card of ``hi``, lowest
    first, takes the lowest unmatched card of ``lo`` if that lies below it
    (every card of ``lo`` below one card of ``hi`` is below all later ones).
    """
    cnt = 0
    avail = lo
    m = hi
    while m and avail:
        y = ctz_nb(m)
        m &= m - 1
        if avail & (_bit(y) - 1):
            avail &= avail - 1
            cnt += 1
    return cnt


def _bracket_tables():
    """Per byte b (bit i = the i-th card in rank order, 1 = a higher-side card,
    0 = a lower-side card): the net count (#1 - #0) and the largest such count
    over the byte's prefixes (0 for the empty one)."""
    delta = np.zeros(256, np.int64)
    pmax = np.zeros(256, np.int64)
    for b in range(256):
        run = 0
        top = 0
        for i in range(8):
            run += 1 if (b >> i) & 1 else -1
            top = max(top, run)
        delta[b] = run
        pmax[b] = top
    return delta, pmax


BR_DELTA, BR_PMAX = _bracket_tables()


@njit(cache=True, inline="always")
def _beatable_bits(lo, hi):
    """:func:`_beatable` without a data-dependent loop (disjoint ``lo``, ``hi``).

    Read the cards of both sets in rank order as brackets: a card of ``lo``
    opens, a card of ``hi`` closes.  The greedy matching leaves a card of
    ``hi`` unmatched exactly when the closers so far outnumber the openers, so
    the unmatched ones number the largest prefix surplus of closers, found a
    byte at a time (22 tarocks: three bytes; padding zeros only open).
    """
    x = pext_nb(hi, lo | hi)
    run = 0
    top = 0
    for i in range(3):
        b = (x >> (8 * i)) & 255
        t = run + BR_PMAX[b]
        if t > top:
            top = t
        run += BR_DELTA[b]
    return popcount_nb(hi) - top


@njit(cache=True, inline="always")
def _tarock_tricks(td, tdef):
    """The declarer's tarocks ``td`` against the defenders' ``tdef``: his
    tarocks above all of theirs, their number k, and kk >= k, the tricks his
    tarocks win in any line (his tarocks minus the most of them distinct
    higher defender tarocks can beat, see :func:`_trick_bounds`)."""
    sure = td
    kk = popcount_nb(td)
    if tdef:
        sure = td & ~((np.int64(2) << _high(tdef)) - 1)
        kk -= _beatable_bits(td, tdef)
    return sure, popcount_nb(sure), kk


@njit(cache=True)
def _trick_bounds(h_decl, h_a, h_b):
    """:func:`_sure_points` with the declarer's tarock tricks counted, not only
    his unbeatable ones: (declarer's sure points, defenders' sure points).

    A trick in which the declarer plays tarock d is lost only if a defender
    plays a higher tarock to it (a suit card never beats a tarock), and each
    defender tarock is played to one trick: of his dt tarock tricks the
    defenders can take at most M = the most of his tarocks matched to
    distinct higher defender tarocks (:func:`_beatable`), so he wins
    K >= dt - M tricks.  Those hold his k unbeatable tarocks (never matched,
    so K >= k) and K - k others, worth at least his cheapest non-sure tarocks,
    plus one distinct card of each defender: at least each one's K cheapest.
    Every extra trick is worth >= 1 point (3 cards - 2), so this never falls
    below the bound of the unbeatable tarocks alone.  The bound holds for every
    line of play, so bird reserves do not affect it.  Measured: 3% fewer nodes
    at 12-13 tricks, 8% on full deals: benchmarks/EXPERIMENTS.md (2026-11-30,
    node counts after 5b).
    """
    return _side_bounds(h_decl, h_a, h_b, True)


@njit(cache=True, inline="always")
def _side_bounds(h_decl, h_a, h_b, count_tricks):
    """Both sides' sure points: :func:`_trick_bounds` when ``count_tricks``,
    else :func:`_sure_points` (the declarer's unbeatable tarocks only).  One
    body for both; ``count_tricks`` is a constant at each call, so the
    compiler drops the other branch.  The declarer's count uses
    :func:`_beatable_bits` (no branchy loop; same results as
    :func:`_beatable` on 200,000 random deals, 1-5% less CPU;
    benchmarks/EXPERIMENTS.md (2026-11-30, a seat-order bound, cheaper nodes))."""
    td = h_decl & TAROCKS
    ta = h_a & TAROCKS
    tb = h_b & TAROCKS
    tdef = ta | tb
    lb_decl = 0
    lb_def = 0
    if td:
        if count_tricks:
            sure, k, kk = _tarock_tricks(td, tdef)
        else:
            sure = td
            if tdef:
                sure = td & ~((np.int64(2) << _high(tdef)) - 1)
            k = popcount_nb(sure)
            kk = k
        if kk > k:
            lb_decl = (_nominal_sum(sure) + _cheapest(td & ~sure, kk - k) + _cheapest(h_a, kk)
                       + _cheapest(h_b, kk) - 2 * kk)
        else:
            # each defender adds one card of his own to each of those k tricks
            lb_decl = _nominal_sum(sure) + _cheapest(h_a, k) + _cheapest(h_b, k) - 2 * k
    if tdef:
        lb_def = _defence_sure_points(h_decl, td, ta, tb)
    return lb_decl, lb_def


@njit(cache=True, inline="always")
def _cheapest(hand, k):
    """Lowest possible nominal sum of k cards of ``hand`` (k <= its size)."""
    total = 0
    left = k
    ones = hand & ~V2
    twos = hand & V2 & ~V3
    threes = hand & V3 & ~V4
    fours = hand & V4 & ~V5
    for v, m in ((1, ones), (2, twos), (3, threes), (4, fours)):
        c = popcount_nb(m)
        if c >= left:
            return total + v * left
        total += v * c
        left -= c
    return total + 5 * left


@njit(cache=True, inline="always")
def _top_suit_cards(h_lead, h_a, h_b, ruff_a, ruff_b):
    """In each suit, the highest cards of ``h_lead`` above all of the other
    two hands' cards of that suit, as many as each of those who may ruff
    (``ruff_a``/``ruff_b``: he still holds a tarock) can follow: the cards
    that win one round each while nobody can ruff."""
    out = 0
    for g in range(1, 5):
        gm = SUIT_GROUPS[g]
        mine = h_lead & gm
        if mine == 0:
            continue
        ga = h_a & gm
        gb = h_b & gm
        top = mine
        if ga | gb:
            top &= ~((np.int64(2) << _high(ga | gb)) - 1)
        r = popcount_nb(top)
        if ruff_a:
            ca = popcount_nb(ga)
            if ca < r:
                r = ca
        if ruff_b:
            cb = popcount_nb(gb)
            if cb < r:
                r = cb
        # the r highest of his top cards
        while r > 0:
            c = _high(top)
            top &= ~_bit(c)
            out |= _bit(c)
            r -= 1
    return out


@njit(cache=True)
def _cash_points(h_lead, h_a, h_b, keep):
    """Points the leader surely takes by cashing his unbeatable cards first.

    A strategy, so a lower bound: he first leads his tarocks that beat all of
    the followers' (``keep``: announced birds he may not lead), keeping the
    lead; each follower must play tarocks while he has them.  Then, suit by
    suit, his cards above all of the followers' cards of that suit, for as
    many rounds as every follower who still holds a tarock can follow suit
    (so nobody can trump).  Followers give their cheapest cards: tarocks
    while forced to, else their cheapest other cards.
    """
    ta = h_a & TAROCKS
    tb = h_b & TAROCKS
    sure = h_lead & TAROCKS & ~keep
    if ta | tb:
        sure &= ~((np.int64(2) << _high(ta | tb)) - 1)
    k = popcount_nb(sure)
    total = _nominal_sum(sure)
    na = popcount_nb(ta)
    nb = popcount_nb(tb)
    left_a = na - k
    left_b = nb - k
    tops = _top_suit_cards(h_lead, h_a, h_b, left_a > 0, left_b > 0)
    total += _nominal_sum(tops)
    rounds = popcount_nb(tops)
    tricks = k + rounds
    if tricks == 0:
        return 0
    total -= 2 * tricks
    for t, nt, hh in ((ta, na, h_a), (tb, nb, h_b)):
        if nt >= k:
            total += _cheapest(t, k) + _cheapest(hh & ~TAROCKS, rounds)
        else:
            total += _nominal_sum(t) + _cheapest(hh & ~TAROCKS, k - nt + rounds)
    return total


@njit(cache=True)
def _first_trick(h_decl, h_a, h_b, decl_leads, birds):
    """Points of the tricks the declarer surely wins by the seat order (0 if
    none): while he wins nothing he never leads, so B (``h_b``, the defender
    before him) always shows his card first, and A (``h_a``) plays after him
    only in tricks B led.

    d_1 > ... > d_m: his tarocks that are not announced birds (never reserved,
    so every choice below is legal with any bird reserve).  Strategy: when he
    leads, a suit card if he has one, else his lowest non-bird tarock; when he
    plays a tarock to a trick he did not lead (he then has no legal card but
    tarocks), his lowest non-bird tarock if a tarock above all of his lies in
    the trick already, else his highest: that one wins unless A plays a
    higher tarock after him.  So each non-bird tarock play of his is
      - a top removal: his highest goes, won (unpaid) or overtaken by a
        tarock of A above it (paid);
      - a bottom removal: his lowest goes, under a tarock above all of his
        (paid), or led by him (unpaid).
    Top removals take d_1..d_j, bottom removals d_m..d_{j+1}; while they go
    his top is >= d_{j+1}.  Suppose he wins W <= K - 1 tricks.  Unpaid top
    removals are wins, <= K - 1 (the defence at best leaves d_1..d_{K-1}
    unpaid); A pays the other top ones with distinct tarocks, A's i-th highest
    above d_{K-1+i}.  Unpaid bottom removals are tarock leads: now (lead_t: on
    lead without a suit card) or after one of his <= K - 1 wins, and only when
    he has no suit card left.  While he holds a non-bird tarock he never
    discards a suit card (void, he must trump), so his suit cards go only to
    his own leads or one to each defender lead of their suit: `spare` =
    his suit cards - sum over suits of min(his, the defenders') - the lead now
    stay for his later leads, so ub = lead_t + max(0, K - 1 - spare).  The
    paid bottom removals need distinct tarocks above d_{j+1}, as do A's
    payers: at least m - (K - 1) - ub defender tarocks above d_{j+1}, unless
    all bottom removals are unpaid (j >= m - ub).  A larger j only helps the
    defence (a lower d_{j+1}; a line with j < K - 1 needs more), so the test
    takes the largest j A's tarocks allow; if it fails, W >= K.  His K tricks
    hold at least his K cheapest cards and each defender's K cheapest: that
    sum minus 2 K.  Holds for every defence.  K = 1 with A's tarocks all
    below his top: he wins a trick if he holds more non-bird tarocks than B
    holds tarocks above his top one (one more when he must lead a tarock now).
    Measured: nodes 0.80x on full deals 0,2-8, 0.35x on deal 3 (b1 of
    benchmarks/EXPERIMENTS.md (2026-11-30, a seat-order bound, cheaper nodes)).
    Returns (points, K); :func:`_suit_tops` uses K.
    """
    td = h_decl & TAROCKS & ~np.int64(birds)
    if td == 0:
        return 0, 0
    m = popcount_nb(td)
    suits = h_decl & ~TAROCKS
    lead_t = 1 if decl_leads and suits == 0 else 0
    lead_s = 1 if decl_leads and suits != 0 else 0
    ta = h_a & TAROCKS
    tdef = ta | (h_b & TAROCKS)
    k = 0
    top = td
    spare = 0
    while k < m:
        # his unpaid bottom removals: tarock leads now or after one of his k wins
        ub = lead_t
        if k > 0:
            if k == 1:
                # his suit cards spare for leads: while he holds a non-bird
                # tarock he never discards a suit card, so they go only to his
                # own leads or to defender leads of their suit (one card of his
                # for each defender lead of it)
                spare = popcount_nb(suits) - lead_s
                for g in range(1, 5):
                    gm = SUIT_GROUPS[g]
                    nd = popcount_nb(h_decl & gm)
                    nf = popcount_nb((h_a | h_b) & gm)
                    spare -= nd if nd < nf else nf
            later = k - (spare if spare > 0 else 0)
            if later > 0:
                ub += later
        # test W >= k + 1: d_1..d_k may go unpaid; A's tarocks cover d_{k+1}, ...
        x = top
        y = ta
        j = k
        while x and y:
            dc = _high(x)
            ac = _high(y)
            if ac < dc:
                break
            j += 1
            x &= ~_bit(dc)
            y &= ~_bit(ac)
        if j >= m - ub:
            break
        if popcount_nb(tdef & ~((np.int64(2) << _high(x)) - 1)) >= m - k - ub:
            break
        k += 1
        top &= ~_bit(_high(top))
    if k == 0:
        return 0, 0
    return _cheapest(h_decl, k) + _cheapest(h_a, k) + _cheapest(h_b, k) - 2 * k, k


@njit(cache=True)
def _suit_tops(h_decl, h_a, h_b, decl_leads, k_ft):
    """The declarer's sure suit winners, with the tricks he wins by tarocks.

    T: in each suit Y, his r highest cards when they lie above every
    defender card of Y, r = min(his such cards, Y cards of each defender who
    holds a tarock).  Invariant until the r-th Y trick: each defender holds
    a Y card or no tarock (his Y cards leave only in Y tricks while he holds
    a tarock: void in a led suit he must trump; tarocks never come back), so
    nobody ruffs the first r Y tricks and a card of T played to them wins.
    Strategy (compatible with :func:`_first_trick`'s): follow Y with a card
    of T; never discard a card of T; on lead, cash T.  Before his first win
    he holds a tarock when kk >= 1 (his tarock tricks, any line) or
    k_ft >= 1 (the seat-order count applies to the play up to his last
    non-bird tarock), so he never discards (void, he must trump); the first
    Y trick before it is itself a win.  At his first win (or now, if he
    leads) any T card left means another trick to lead: he cashes all of T,
    keeping the lead.  So (if kk >= 1, k_ft >= 1 or he leads now) every
    card of T lies in a trick he wins; those tricks, where he plays a suit
    card, are not his kk tarock tricks: W >= max(kk + |T|, k_ft), and his
    won tricks hold T, plus the tarocks of the kk count (as in
    :func:`_trick_bounds`) or his cheapest others, and W cards of each
    defender.  Birds: every choice above is legal under any reserve (the
    reserve binds only his tarocks).  Measured: nodes 0.80x on full deals
    0,2-8 (deal 8 0.34x), 0.91x at 12-13 tricks (b2 of
    benchmarks/EXPERIMENTS.md (2026-11-30, a seat-order bound, cheaper nodes)).

    Without kk, k_ft or the lead (a defender leads; b3 of the same experiments): before
    his first win every trick is led by a defender.  Y: the suits of T; X:
    suits he is void in while holding a tarock, held by a defender and by
    each defender who holds a tarock.  A Y lead is a win (as above, if he
    still holds T).  An X lead is a win if he still holds a tarock: he must
    ruff, and the other defender holds an X card (his X cards leave only in
    X tricks while he holds a tarock) or no tarock, so whether he plays
    before or after the declarer he cannot overruff.  Every other lead is
    safe for the defence; a lead of Z (tarocks or a suit) removes a Z card
    from each defender holding Z, so at most S = sum over those Z of
    max(A's Z cards, B's Z cards) tricks are safe.  In a safe trick he
    follows Z (not a card of T: Z is not in Y), trumps, or discards a card
    outside T while he has one, so with S_xy < m (his tarocks: he still
    holds one, never discards) or S_y <= n - |T| (X counted safe; he keeps
    T), and S < n (a trick S + 1 exists), trick S + 1 at the latest is a
    win with all of T still his; then he cashes T (as above).  So
    W >= max(1, |T|).  Birds: a reserved tarock is still played when he
    must trump with nothing else; the strategy never needs a given tarock.
    Measured: nodes 0.96-0.98x, CPU 0.95x on full deals, 1.0 at 12-13 tricks.
    """
    td = h_decl & TAROCKS
    ta = h_a & TAROCKS
    tb = h_b & TAROCKS
    tdef = ta | tb
    kk = 0
    sure = 0
    k = 0
    if td:
        sure, k, kk = _tarock_tricks(td, tdef)
    need = kk == 0 and k_ft == 0 and not decl_leads
    tset = _top_suit_cards(h_decl, h_a, h_b, ta != 0, tb != 0)
    if need:
        # no win proven yet and a defender leads: the forced leads (docstring)
        n = popcount_nb(h_decl)
        m = popcount_nb(td)
        s_y = max(popcount_nb(ta), popcount_nb(tb))
        s_xy = s_y
        for g in range(1, 5):
            gm = SUIT_GROUPS[g]
            if tset & gm:
                continue
            ga = h_a & gm
            gb = h_b & gm
            mx = max(popcount_nb(ga), popcount_nb(gb))
            s_y += mx
            ruffed = (m > 0 and (h_decl & gm) == 0 and (ga | gb) != 0
                      and (ta == 0 or ga != 0) and (tb == 0 or gb != 0))
            if not ruffed:
                s_xy += mx
        nt = popcount_nb(tset)
        if not ((s_xy < m and s_xy < n) or (s_y <= n - nt and s_y < n)):
            return 0
        if tset == 0:
            return _cheapest(h_decl, 1) + _cheapest(h_a, 1) + _cheapest(h_b, 1) - 2
        return _nominal_sum(tset) + _cheapest(h_a, nt) + _cheapest(h_b, nt) - 2 * nt
    if tset == 0:
        return 0
    nt = popcount_nb(tset)
    base = _nominal_sum(tset)
    w1 = kk + nt
    b1 = base + _cheapest(h_a, w1) + _cheapest(h_b, w1) - 2 * w1
    if kk > 0:
        b1 += _nominal_sum(sure) + _cheapest(td & ~sure, kk - k)
    if k_ft > nt:
        w2 = k_ft
        b2 = base + _cheapest(h_decl & ~tset, k_ft - nt) + _cheapest(h_a, w2) + _cheapest(h_b, w2) - 2 * w2
        if b2 > b1:
            b1 = b2
    return b1


@njit(cache=True, inline="always")
def _cheapest_card(m):
    """A card of lowest value in a non-empty mask (the lowest-ranked of them)."""
    for vm in (~V2, V2 & ~V3, V3 & ~V4, V4 & ~V5):
        x = m & vm
        if x:
            return ctz_nb(x)
    return ctz_nb(m)


@njit(cache=True)
def _cash_points_defence(h_lead, h_partner, h_decl):
    """Points a defender on lead surely wins for his side by cashing his
    tarocks that beat all of the declarer's.

    His partner plays his cheapest legal card each time (if that overtakes,
    the trick is still the defenders' but the lead passes, so counting stops);
    the declarer gives his cheapest cards, tarocks while he has them.
    """
    tl = h_lead & TAROCKS
    td = h_decl & TAROCKS
    if tl == 0:
        return 0
    sure = tl
    if td:
        sure = tl & ~((np.int64(2) << _high(td)) - 1)
    if sure == 0:
        return 0
    total = 0
    k = 0
    p = h_partner
    while sure:
        c = _high(sure)
        sure &= ~_bit(c)
        pt = p & TAROCKS
        pc = _cheapest_card(pt if pt else p)
        p &= ~_bit(pc)
        total += NOM[c] + NOM[pc] - 2
        k += 1
        if pc < 22 and pc > c:
            break
    nt = popcount_nb(td)
    if nt >= k:
        total += _cheapest(td, k)
    else:
        total += _nominal_sum(td) + _cheapest(h_decl & ~TAROCKS, k - nt)
    return total
