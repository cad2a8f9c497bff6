"""What a review says, in the forms it is read in: per-player totals, the JSON document
(and its reader: a review round-trips through JSON), text lines for the terminal and
the rows of ``tarock batch --mode review``.

Card points in the document: ``*_thirds`` are the declarer's totals in thirds (discard
and tricks, as ``tarock solve``'s ``declarer_thirds``), ``points`` the rounded P of a
total; a card's ``before``/``after``/``loss`` are whole card points (future points of
the play, see :mod:`.engine`).  Game points (``gp_*``) are the declarer's net.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..cards import CARD_IDS, INDEX_OF, SEAT_NAMES, card_label, format_thirds, round_points
from ..columns import align
from ..notation import format_deal
from .engine import CardVerdict, ExchangeVerdict, Review
from .record import PlayRecord
from .text import (
    format_announcements,
    format_discard,
    format_play,
    format_players,
    parse_record,
)

__all__ = ["REVIEW_COLUMNS", "SCHEMA", "PlayerSummary", "player_summaries",
           "review_frame", "review_from_json", "review_lines", "review_rows",
           "review_to_json"]

#: Version of the review document and of the batch rows.
SCHEMA = 1
#: Decisions listed per player.
WORST = 3


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's play: cards reviewed, mistakes (loss > 0), total loss in card points
    (and game points), the worst decisions (largest loss first, then play order; with
    game points on, a mistake is a loss in either and the game-point loss ranks first),
    and for the declarer the exchange's loss in thirds."""

    seat: int
    role: str
    cards: int
    open_cards: int
    mistakes: int
    loss: int
    gp_loss: int | None
    worst: tuple[CardVerdict, ...]
    exchange_loss_thirds: int | None = None


def player_summaries(rv: Review) -> list[PlayerSummary]:
    """Per seat F, M, R: the totals of :class:`PlayerSummary`."""
    out = []
    for seat in range(3):
        mine = [c for c in rv.cards if c.seat == seat]
        known = [c for c in mine if c.loss is not None]
        if rv.game_points:
            # with game points on, the score sheet decides what a mistake is and how bad
            bad = sorted((c for c in known if c.loss or c.gp_loss),
                         key=lambda c: (-(c.gp_loss or 0), -(c.loss or 0), c.trick))
        else:
            bad = sorted((c for c in known if c.loss), key=lambda c: (-(c.loss or 0), c.trick))
        gp = None
        if rv.game_points:
            gp = sum(c.gp_loss or 0 for c in mine)
        ex = None
        if seat == rv.record.declarer and rv.exchange is not None:
            ex = rv.exchange.loss_thirds
        out.append(PlayerSummary(
            seat=seat, role="declarer" if seat == rv.record.declarer else "defender",
            cards=len(mine), open_cards=len(mine) - len(known), mistakes=len(bad),
            loss=sum(c.loss or 0 for c in known), gp_loss=gp, worst=tuple(bad[:WORST]),
            exchange_loss_thirds=ex))
    return out


# ---------------------------------------------------------------- JSON document


def _values_json(values: dict[int, tuple[int, int]] | None) -> dict[str, Any] | None:
    if values is None:
        return None
    return {CARD_IDS[c]: (lo if lo == hi else [lo, hi]) for c, (lo, hi) in sorted(values.items())}


def _values_back(obj: dict[str, Any] | None) -> dict[int, tuple[int, int]] | None:
    if obj is None:
        return None
    out = {}
    for cid, v in obj.items():
        lo, hi = (v, v) if isinstance(v, int) else (int(v[0]), int(v[1]))
        out[INDEX_OF[cid]] = (lo, hi)
    return out


def _card_json(c: CardVerdict) -> dict[str, Any]:
    return {
        "trick": c.trick, "place": c.place + 1, "seat": SEAT_NAMES[c.seat],
        "card": CARD_IDS[c.card], "base_thirds": c.base_thirds,
        "before": c.before, "after": c.after, "loss": c.loss,
        "before_thirds": c.before_thirds, "after_thirds": c.after_thirds,
        "best": [CARD_IDS[x] for x in c.best_cards],
        "alternatives": [[CARD_IDS[x], v] for x, v in c.alternatives],
        "values": _values_json(c.values),
        "gp_before": c.gp_before, "gp_after": c.gp_after, "gp_loss": c.gp_loss,
        "gp_values": _values_json(c.gp_values),
    }


def _exchange_json(ex: ExchangeVerdict | None) -> dict[str, Any] | None:
    if ex is None:
        return None
    return {"chosen_group": ex.chosen_group, "chosen_discard": format_discard(ex.chosen_discard),
            "chosen_thirds": ex.chosen_thirds, "best_group": ex.best_group,
            "best_discard": format_discard(ex.best_discard), "best_thirds": ex.best_thirds,
            "loss_thirds": ex.loss_thirds, "complete": ex.complete,
            "lower_thirds": ex.lower_thirds, "upper_thirds": ex.upper_thirds,
            "options": ex.options}


def _discard_mask(text: str) -> int:
    return 0 if text in ("", "-") else sum(1 << INDEX_OF[c] for c in text.split())


def record_json(rec: PlayRecord) -> dict[str, Any]:
    """The record as a JSON Lines object (NOTATION.md 8.3)."""
    obj: dict[str, Any] = {"id": rec.id or None, "deal": format_deal(rec.deal),
                           "declarer": SEAT_NAMES[rec.declarer], "contract": rec.contract,
                           "talon_pick": rec.talon_pick or None,
                           "discard": format_discard(rec.discard) if rec.discard else None,
                           "announcements": format_announcements(rec.announcements)
                           if rec.announcements else None,
                           "play": format_play(rec), "rules": rec.rules}
    if rec.players:
        obj["players"] = dict(rec.players)
    return {k: v for k, v in obj.items() if v is not None}


def record_csv_values(rec: PlayRecord) -> dict[str, str]:
    """The record's CSV cells (NOTATION 8.3): as :func:`record_json`, players as
    ``F=Anna, M=Bert``."""
    obj = record_json(rec)
    if rec.players:
        obj["players"] = format_players(rec.players)
    return {k: str(v) for k, v in obj.items()}


def review_to_json(rv: Review) -> dict[str, Any]:
    """The whole review as one JSON-ready object (``tarock review --json``)."""
    rec = rv.record
    players = []
    for p in player_summaries(rv):
        players.append({"seat": SEAT_NAMES[p.seat], "role": p.role, "cards": p.cards,
                        "open_cards": p.open_cards, "mistakes": p.mistakes, "loss": p.loss,
                        "gp_loss": p.gp_loss, "exchange_loss_thirds": p.exchange_loss_thirds,
                        "worst": [{"trick": c.trick, "card": CARD_IDS[c.card], "loss": c.loss,
                                   "best": [CARD_IDS[x] for x in c.best_cards]}
                                  for c in p.worst]})
    return {
        "schema": SCHEMA, "record": record_json(rec), "rules": rv.rules,
        "game_points": rv.game_points, "complete": rv.complete, "exact": rv.exact,
        "win_thirds": rv.win_thirds,
        "start_thirds": rv.start_thirds, "start_points": _rounded(rv.start_thirds),
        "final_thirds": rv.final_thirds, "final_points": _rounded(rv.final_thirds),
        "start_net": rv.start_net, "final_net": rv.final_net,
        "exchange": _exchange_json(rv.exchange), "players": players,
        "cards": [_card_json(c) for c in rv.cards],
        "seconds": round(rv.seconds, 3), "nodes": rv.nodes,
    }


def _rounded(thirds: int | None) -> int | None:
    return None if thirds is None else round_points(thirds)


def review_from_json(doc: dict[str, Any]) -> Review:
    """The :class:`Review` of a :func:`review_to_json` document (the derived parts —
    players, best cards, alternatives, rounded points — are recomputed)."""
    r = doc["record"]
    players = format_players(r["players"]) if r.get("players") else None
    text = "\n".join(f"{k}: {v}" for k, v in (
        ("id", r.get("id")), ("deal", r["deal"]), ("declarer", r["declarer"]),
        ("contract", r["contract"]), ("talon", r.get("talon_pick")),
        ("discard", r.get("discard")), ("announce", r.get("announcements")),
        ("rules", r.get("rules")), ("players", players), ("play", r.get("play")))
        if v not in (None, "", "-"))
    rec = parse_record(text)
    cards = tuple(CardVerdict(
        trick=c["trick"], place=c["place"] - 1, seat=SEAT_NAMES.index(c["seat"]),
        card=INDEX_OF[c["card"]], declarer=rec.declarer,
        values=_values_back(c["values"]) or {}, base_thirds=c["base_thirds"],
        before=c["before"], after=c["after"], loss=c["loss"],
        gp_values=_values_back(c.get("gp_values")), gp_before=c.get("gp_before"),
        gp_after=c.get("gp_after"), gp_loss=c.get("gp_loss")) for c in doc["cards"])
    ex = doc.get("exchange")
    exchange = None if ex is None else ExchangeVerdict(
        chosen_group=ex["chosen_group"], chosen_discard=_discard_mask(ex["chosen_discard"]),
        chosen_thirds=ex["chosen_thirds"], best_group=ex["best_group"],
        best_discard=_discard_mask(ex["best_discard"]), best_thirds=ex["best_thirds"],
        complete=ex["complete"], lower_thirds=ex["lower_thirds"],
        upper_thirds=ex["upper_thirds"], options=ex["options"])
    return Review(record=rec, rules=doc["rules"], cards=cards, exchange=exchange,
                  start_thirds=doc["start_thirds"], final_thirds=doc["final_thirds"],
                  game_points=doc["game_points"], start_net=doc.get("start_net"),
                  final_net=doc.get("final_net"), complete=doc["complete"],
                  seconds=doc.get("seconds", 0.0), nodes=doc.get("nodes", 0),
                  win_thirds=doc.get("win_thirds", 107))


# ---------------------------------------------------------------- text


def _card_cell(card: int, ascii_only: bool) -> str:
    return card_label(card, ascii=ascii_only)


def _signed(v: int | None) -> str:
    return "?" if v is None else (f"−{v}" if v else "0")


def review_lines(rv: Review, *, ascii_only: bool = False, all_cards: bool = True
                 ) -> list[str]:
    """The review as terminal lines: header, exchange, one row per card, per-player
    totals with the worst three decisions.  ``all_cards=False`` lists only the cards
    that lost something."""
    rec = rv.record
    decl = SEAT_NAMES[rec.declarer]
    lines = [f"Review {rec.id or '(no id)'}   rules: {rv.rules}   declarer {decl}, "
             f"{rec.contract}" + (f", talon {rec.talon_pick}, discard "
                                  f"{format_discard(rec.discard)}" if rec.talon_pick else "")
             + (f", announced {format_announcements(rec.announcements)}"
                if rec.announcements else "")]
    lines.append(format_deal(rec.deal))
    lines.append(f"Declarer's card points (discard + tricks): {format_thirds(rv.start_thirds)} "
                 f"with best play from the first card; {format_thirds(rv.final_thirds)} as "
                 f"played{'' if rv.complete else ' (best play from where the record stops)'}"
                 f" (P {_rounded(rv.final_thirds) if rv.final_thirds is not None else '?'}, "
                 f"made at {format_thirds(rv.win_thirds)}).")
    if rv.game_points:
        lines.append(f"Declarer's net game points: {_fmt_net(rv.start_net)} with best play; "
                     f"{_fmt_net(rv.final_net)} as played.")
    ex = rv.exchange
    if ex is not None:
        if ex.loss_thirds is None:
            lines.append(f"Exchange: took {ex.chosen_group}, discarded "
                         f"{format_discard(ex.chosen_discard)}: "
                         f"{format_thirds(ex.chosen_thirds)}; best exchange between "
                         f"{format_thirds(ex.lower_thirds)} and {format_thirds(ex.upper_thirds)}"
                         " (budget ran out).")
        elif ex.loss_thirds == 0:
            lines.append(f"Exchange: took {ex.chosen_group}, discarded "
                         f"{format_discard(ex.chosen_discard)}: "
                         f"{format_thirds(ex.chosen_thirds)}, as good as the best of "
                         f"{ex.options} exchanges.")
        else:
            lines.append(f"Exchange: took {ex.chosen_group}, discarded "
                         f"{format_discard(ex.chosen_discard)}: "
                         f"{format_thirds(ex.chosen_thirds)}; best: take {ex.best_group}, "
                         f"discard {format_discard(ex.best_discard)}: "
                         f"{format_thirds(ex.best_thirds)} (loss {format_thirds(ex.loss_thirds)}).")
    lines.append("")
    header = ["Trick", "Seat", "Card", "Before", "After", "Loss", "Best", "Alternatives"]
    if rv.game_points:
        header[6:6] = ["Net", "GP loss"]
    body = []
    for c in rv.cards:
        if not all_cards and not c.loss and not c.gp_loss:
            continue
        best = " ".join(_card_cell(x, ascii_only) for x in c.best_cards[:4]) or "?"
        if c.loss == 0:
            best = "=" if not c.forced else "(forced)"
        alts = ", ".join(f"{_card_cell(x, ascii_only)} {format_thirds(c.base_thirds + 3 * v)}"
                         for x, v in c.alternatives)
        row = [f"{c.trick}.{c.place + 1}", SEAT_NAMES[c.seat] + ("*" if c.by_declarer else ""),
               _card_cell(c.card, ascii_only), format_thirds(c.before_thirds),
               format_thirds(c.after_thirds), _signed(c.loss), best, alts]
        if rv.game_points:
            row[6:6] = [_fmt_net(c.gp_after), _signed(c.gp_loss)]
        body.append(row)
    lines += align(body, header)
    lines.append("")
    lines.append("Before/After: the declarer's card points with best play from before / after "
                 "the card; Loss: what the card cost its player, in card points; * the "
                 "declarer.")
    lines.append("")
    for p in player_summaries(rv):
        what = (f"{SEAT_NAMES[p.seat]} ({p.role}): {p.mistakes} mistake"
                f"{'' if p.mistakes == 1 else 's'} in {p.cards} cards, total loss {p.loss} "
                "card point" + ("" if p.loss == 1 else "s"))
        if p.gp_loss is not None:
            what += f", {p.gp_loss} game point" + ("" if p.gp_loss == 1 else "s")
        if p.exchange_loss_thirds:
            what += f"; the exchange cost {format_thirds(p.exchange_loss_thirds)} more"
        if p.open_cards:
            what += f" ({p.open_cards} cards over the budget, not judged)"
        lines.append(what)
        for c in p.worst:
            gp = f" card points, {c.gp_loss} game points" if rv.game_points else ""
            lines.append(f"    trick {c.trick}: {_card_cell(c.card, ascii_only)} lost {c.loss}{gp}; "
                         "best " + " ".join(_card_cell(x, ascii_only) for x in c.best_cards))
    return lines


def _fmt_net(v: int | None) -> str:
    return "?" if v is None else f"{v:+d}"


# ---------------------------------------------------------------- batch rows

#: Columns of ``tarock batch --mode review`` (one row per card played).
_REVIEW_DTYPES = {"schema": "Int32", "trick": "Int16", "place": "Int16", "before_thirds": "Int16",
                  "after_thirds": "Int16", "loss": "Int16", "gp_after": "Int32",
                  "gp_loss": "Int32", "exchange_loss_thirds": "Int16", "solve_ms": "Float64"}

REVIEW_COLUMNS = ("schema", "deal_id", "rules", "declarer", "contract", "trick", "place",
                  "seat", "player", "role", "card", "before_thirds", "after_thirds", "loss", "best",
                  "gp_after", "gp_loss", "exchange_loss_thirds", "status", "solve_ms")


def review_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Review rows (:func:`review_rows`) as a typed DataFrame in :data:`REVIEW_COLUMNS`
    order: what ``tarock batch --mode review`` writes."""
    frame = pd.DataFrame(rows, columns=list(REVIEW_COLUMNS))
    for column in REVIEW_COLUMNS:
        frame[column] = frame[column].astype(_REVIEW_DTYPES.get(column, "string"))
    return frame


def review_rows(rv: Review) -> list[dict[str, Any]]:
    """One row per card; the exchange verdict is one more row with ``card`` "exchange"
    (``trick`` 0), so a file holds every decision of the declarer."""
    rec = rv.record
    base = {"schema": SCHEMA, "deal_id": rec.id, "rules": rv.rules,
            "declarer": SEAT_NAMES[rec.declarer], "contract": rec.contract}
    rows = []
    ms = rv.seconds * 1000.0
    if rv.exchange is not None:
        ex = rv.exchange
        rows.append({**base, "trick": 0, "place": 0, "seat": SEAT_NAMES[rec.declarer],
                     "player": rec.players.get(SEAT_NAMES[rec.declarer], ""),
                     "role": "declarer", "card": "exchange",
                     "before_thirds": ex.best_thirds, "after_thirds": ex.chosen_thirds,
                     "loss": None, "best": f"{ex.best_group} {format_discard(ex.best_discard)}",
                     "gp_after": None, "gp_loss": None,
                     "exchange_loss_thirds": ex.loss_thirds,
                     "status": "exact" if ex.complete else "over_budget", "solve_ms": ms})
    for c in rv.cards:
        rows.append({**base, "trick": c.trick, "place": c.place + 1, "seat": SEAT_NAMES[c.seat],
                     "player": rec.players.get(SEAT_NAMES[c.seat], ""),
                     "role": "declarer" if c.by_declarer else "defender",
                     "card": CARD_IDS[c.card], "before_thirds": c.before_thirds,
                     "after_thirds": c.after_thirds, "loss": c.loss,
                     "best": " ".join(CARD_IDS[x] for x in c.best_cards),
                     "gp_after": c.gp_after, "gp_loss": c.gp_loss,
                     "exchange_loss_thirds": None,
                     "status": "exact" if c.exact else "over_budget", "solve_ms": ms})
    return rows

