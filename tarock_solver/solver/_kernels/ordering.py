"""Move ordering: the sort scores of leads and of following cards.

The search tries a node's moves best score first; the classes and why each
rule is there (with its measured gain) are in the comments and in
benchmarks/EXPERIMENTS.md.
"""

from __future__ import annotations

from numba import njit

from ...bits import popcount_nb
from .play import CGM, NOM, TAROCKS, _above, _beats, _follow_mask, _high


@njit(cache=True, inline="always")
def _beats_mask(f, w):
    """Does the set ``f`` (one player's legal cards) hold a card that beats ``w``?"""
    return (f & (_above(w) | (TAROCKS if w >= 22 else 0))) != 0


@njit(cache=True, inline="always")
def _lead_score(s, c, declarer, f1, f2):
    """Ordering score of leading card ``c`` from seat ``s`` (higher is tried first).

    Sure winners (no opponent can beat them) come first, the most valuable
    first; among them and among the others, leads that leave the opponents
    fewer legal replies come earlier (smaller proof trees); low cards before
    high ones otherwise.  ``f1``/``f2`` are the legal replies of the next and
    the last seat: they depend on c's group only, so the caller computes them
    once per group (measured: ~10% less CPU with the follow-score context).
    """
    side = s == declarer
    if side:
        replies = popcount_nb(f1) + popcount_nb(f2)
        beaten = _beats_mask(f1, c) or _beats_mask(f2, c)
    else:
        fd = f1 if (s + 1) % 3 == declarer else f2
        replies = popcount_nb(fd)
        beaten = _beats_mask(fd, c)
    if not beaten:
        return 2000 + 10 * NOM[c] - 20 * replies
    if not side:
        # a defender's lead the partner can surely win: the partner's best
        # legal card beats the lead and everything the declarer can play
        partner = 3 - s - declarer
        pl = f2 if (s + 1) % 3 == declarer else f1
        top = _high(pl)
        if _beats(top, c):
            if (partner == (s + 2) % 3 and not _beats(_high(fd), top)) or \
                    (partner == (s + 1) % 3 and not _beats_mask(fd, top)):
                return 1500 + 10 * NOM[c] - 5 * replies
    return 1000 - 10 * NOM[c] - 5 * replies


@njit(cache=True, inline="always")
def _follow_context(h, s, p, led, is_decl, declarer):
    """The per-node parts of :func:`_follow_score` for seat ``s`` following
    at trick position ``p``: (the next player's legal cards if p == 1, is the
    next player on the mover's side, the opponents' highest tarock or -1)."""
    lt = 0
    partner_next = False
    if p == 1:
        t = (s + 1) % 3
        lt = _follow_mask(h[t], led)
        partner_next = (t == declarer) == is_decl
    if is_decl:
        opp = (h[(declarer + 1) % 3] | h[(declarer + 2) % 3]) & TAROCKS
    else:
        opp = h[declarer] & TAROCKS
    ohi = _high(opp) if opp else -1
    return lt, partner_next, ohi


@njit(cache=True, inline="always")
def _follow_score(c, p, side, w, ws, declarer, lt, partner_next, ohi, hd):
    """Ordering score of following with ``c`` at trick position ``p``.

    ``w``/``ws`` are the card and seat winning the trick so far.  A card that
    wins the trick for the mover's side for sure comes first (the most
    valuable: smear points onto it); then cards that may still let the side
    win (cheap ones first); then losing cards, cheapest first.  Among the sure
    winners, a tarock above every tarock of the opponents (one that would win
    a trick of its own later) goes last: spending it here is rarely the move
    that proves a bound (26% fewer nodes at 12-13 tricks, 30% on seven full
    deals; benchmarks/EXPERIMENTS.md (2026-11-30, per-node cost, one table,
    ordering)); the same for a defender's last card of a trick: a suit card
    above all of the declarer's cards of that suit goes last (-3% nodes at
    12-13 tricks, -6% and -12% on two sets of full deals; at the second card,
    or for the declarer, it loses; benchmarks/EXPERIMENTS.md (2026-11-30, a
    seat-order bound, cheaper nodes)).

    The per-node parts come from the caller (:func:`_follow_context`): ``side``
    (the mover is the declarer), ``lt`` the next player's legal cards (p == 1
    only), ``partner_next`` (the next player is on the mover's side), ``ohi``
    the opponents' highest tarock (-1: none); ``hd`` is the declarer's hand.
    """
    if _beats(c, w):
        # the mover takes the lead of the trick: his own side wins it so far
        nw = c
        ours = True
    else:
        nw = w
        ours = (ws == declarer) == side
    if p == 2:
        sure = ours
        possible = ours
    else:
        cb = (lt & (_above(nw) | (TAROCKS if nw >= 22 else 0))) != 0
        if partner_next:
            # the partner plays the last card: if he can beat the trick's
            # winner, the trick is surely the defenders' whatever the mover
            # plays, so a duck is as sure as a win of his own (measured: fail-low
            # tests of deals 15/2/6/4/14 35.1 -> 29.0 M nodes, full deals 0-19
            # 0.92x, 20-39 0.97x; benchmarks/EXPERIMENTS.md (2026-11-30,
            # fail-low tests, ordering at the top))
            sure = ours or cb
            possible = sure
        else:
            possible = ours
            sure = ours and not cb
    if sure:
        if c < 22:
            if c > ohi:
                return 2940 + 10 * NOM[c] - c
        elif p == 2 and not side:
            # a suit card that would win a trick of its own later
            opp = hd & CGM[c]
            if opp != 0 and c > _high(opp):
                return 2940 + 10 * NOM[c] - c
        return 3000 + 10 * NOM[c] - c
    if possible:
        return 2000 - 10 * NOM[c] - c
    return 1000 - 10 * NOM[c] - c
