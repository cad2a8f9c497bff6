"""A cheap, deterministic stand-in for the double-dummy solver (adviser tests only).

The adviser's logic — sampling, nested talon choice, racing, common random
numbers, scoring, parallel runs — does not depend on how good the solver is,
only on getting a number per position.  This stand-in makes the numbers
depend on the hidden cards in a way that rewards knowing them (a suit the
declarer keeps is lost when a defender is void in it and can trump), so the
information-set test has something to detect.  Module-level functions so that
spawned worker processes can unpickle them.
"""

from __future__ import annotations

from tarock_solver.cards import GROUP_MASKS, TAROCK_MASK, thirds_of


def fake_trick_points(positions):
    """Declarer's 'trick points' of each ``(hands, declarer)``: a strength model."""
    out = []
    for hands, d in positions:
        total = thirds_of(hands[0] | hands[1] | hands[2]) // 3
        mine = hands[d]
        defs = [hands[(d + 1) % 3], hands[(d + 2) % 3]]
        t_mine = (mine & TAROCK_MASK).bit_count()
        t_def = sum((h & TAROCK_MASK).bit_count() for h in defs)
        share = t_mine / max(1, t_mine + t_def)
        points = total * (0.25 + 0.75 * share)
        for suit in GROUP_MASKS[1:]:
            kept = mine & suit
            if kept and any(not (h & suit) and h & TAROCK_MASK for h in defs):
                # A defender can trump this suit: the declarer's cards in it are lost.
                points -= thirds_of(kept) / 3 + 2
        out.append(int(max(0, min(total, round(points)))))
    return out


def zero_trick_points(positions):
    """A declarer who never wins a trick."""
    return [0 for _ in positions]


def all_trick_points(positions):
    """A declarer who wins every trick (Valat)."""
    return [thirds_of(h[0] | h[1] | h[2]) // 3 for h, _ in positions]


def fake_game_points(hands, leader, declarer, *, rules, contract, announcements=None,
                     discard_thirds=0, declarer_hand=None, dealt=(None, None, None),
                     budget=None, **_):
    """A stand-in for ``solve_game_points``: the fake card points scored by the real
    calculator, plus a bird rule that depends on the hidden hands.

    A declarer's bird (I, II, III) wins its trick when his tarocks outnumber each
    defender's by more than the bird's number; a bird item is worth its silent value
    when not announced and its announced value when announced, won or lost.  A solve
    "costs" 1000 nodes per tarock of the first defender; over the ``budget``'s nodes it
    returns bounds and no detail, like the real solver.
    """
    from types import SimpleNamespace

    from tarock_solver.scoring import ScoreInput, score
    from tarock_solver.solver import SearchResult

    nodes = 1000 * (hands[(declarer + 1) % 3] & TAROCK_MASK).bit_count()
    if budget is not None and budget.nodes is not None and nodes > budget.nodes:
        return SearchResult(-1000, 1000, budget.nodes)

    announcements = dict(announcements or {})
    points = fake_trick_points([(tuple(hands), declarer)])[0]
    thirds = discard_thirds + 3 * points
    valat = 3 * points == thirds_of(hands[0] | hands[1] | hands[2])
    card_items = {k: v for k, v in announcements.items() if k not in ("pagat", "uhu", "kakadu")}
    res = score(rules, ScoreInput(contract=contract, declarer=declarer, declarer_thirds=thirds,
                                  announcements=card_items, valat=valat,
                                  declarer_hand=declarer_hand, dealt=tuple(dealt)))
    net = float(res.net_declarer)
    mine = (hands[declarer] & TAROCK_MASK).bit_count()
    defs = [(hands[(declarer + k) % 3] & TAROCK_MASK).bit_count() for k in (1, 2)]
    notes = []
    for number, bird in enumerate(("pagat", "uhu", "kakadu"), start=1):
        if not hands[declarer] >> (number - 1) & 1:
            continue
        won = mine - max(defs) > number
        notes.append(f"{bird}@decl:{'won' if won else 'lost'}")
        value = rules.bird_value(bird, announcements.get(bird, "silent")) or 0
        net += 2 * value if won else -2 * value
    detail = SimpleNamespace(net_declarer=net, score=SimpleNamespace(made=res.made),
                             thirds=thirds, valat=valat, birds=";".join(notes), nodes=nodes)
    return SearchResult(int(net), int(net), nodes, detail=detail)
