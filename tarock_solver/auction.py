"""The auction: validates calls and finds the declarer, contract and level (RULES.md 6).

One engine, :class:`Auction`, serves every profile, driven by the option keys of
RULES.md 12 (:class:`AuctionOptions`); :func:`run_auction` plays a list of calls and
:class:`AuctionResult` says how it ended.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import SEAT_NAMES
from .errors import RulesError
from .rules.names import CONTRACT_KEYS, seat_index

CONTRACT_NAMES = {c: c.capitalize() for c in CONTRACT_KEYS}

PASS, ACCEPT, HOLD, TAKEOVER, RETAKE = "pass", "accept", "hold", "takeover", "retake"
#: Calls that take a player out of the auction.
DROP_CALLS = (PASS, ACCEPT)

TAKEOVER_MODES = ("lower_bid", "beck_once", "loew_any", "none")
HOLD_RULES = ("seniority", "takeover_only", "none")
JUMP_BIDS = ("any", "one_step")
ALL_PASS = ("trischaken", "redeal", "graz_keep_talon")

LEVELS = (None, "taken", "held", "retaken")

#: Spellings of calls, after case folding and umlaut folding.  "unterer" is resolved per
#: profile: Dummett's Lower is a contract, Beck's Unterer is a take-over.
_ALIASES: dict[str, str] = {
    "pass": PASS, "passes": PASS, "p": PASS, "weiter": PASS, "passe": PASS,
    "accept": ACCEPT, "accepts": ACCEPT, "gut": ACCEPT,
    "hold": HOLD, "holds": HOLD, "mein spiel": HOLD,
    "takeover": TAKEOVER, "take over": TAKEOVER, "takes over": TAKEOVER,
    "ablosung": TAKEOVER, "abloesung": TAKEOVER,
    "retake": RETAKE, "retakes": RETAKE, "zweite ablosung": RETAKE, "zweite abloesung": RETAKE,
    "three": "three", "dreier": "three", "dreiblatt": "three", "3 blatt": "three",
    "3blatt": "three", "3": "three",
    "lower": "lower",
    "two": "two", "zweier": "two", "zweiblatt": "two", "2 blatt": "two", "2blatt": "two", "2": "two",
    "one": "one", "einer": "one", "einblatt": "one", "1 blatt": "one", "1blatt": "one", "1": "one",
    "solo": "solo",
}

_SEAT_PREFIX = re.compile(r"^([FMRfmr])(?:\s*:\s*|\s+)(\S.*)$")


@dataclass(frozen=True)
class Bid:
    """The standing bid: a contract, the seat that holds it, and its level."""

    contract: str
    seat: int
    level: str | None = None

    def describe(self) -> str:
        level = f" ({self.level})" if self.level else ""
        return f"{CONTRACT_NAMES[self.contract]}{level} by {SEAT_NAMES[self.seat]}"


@dataclass(frozen=True)
class AuctionResult:
    """How the auction ended.

    ``outcome`` is ``'game'`` when somebody declares, else the profile's ``all_pass``
    value (``'trischaken'``, ``'redeal'`` or ``'graz_keep_talon'``).  For a game,
    ``declarer`` is the seat (0, 1, 2), ``level`` is None, ``'taken'``, ``'held'`` or
    ``'retaken'``, and ``game_value`` is G (None when the rules object carries no game
    values).
    """

    outcome: str
    declarer: int | None = None
    contract: str | None = None
    level: str | None = None
    game_value: int | None = None

    @property
    def is_game(self) -> bool:
        return self.outcome == "game"

    @property
    def declarer_seat(self) -> str | None:
        return None if self.declarer is None else SEAT_NAMES[self.declarer]

    def describe(self) -> str:
        if not self.is_game:
            return {"trischaken": "all passed: Trischaken",
                    "redeal": "all passed: the same dealer deals again",
                    "graz_keep_talon": "all passed: the dealer keeps the talon"}[self.outcome]
        level = f" at level {self.level}" if self.level else ""
        value = f" (G {self.game_value})" if self.game_value is not None else ""
        return f"{SEAT_NAMES[self.declarer]} plays {CONTRACT_NAMES[self.contract]}{level}{value}"


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise RulesError(f'option {name}: "{value}" is not a boolean; expected true or false.')


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    value = str(value)
    if value not in allowed:
        raise RulesError(
            f'option {name}: unknown value "{value}"; expected one of: {", ".join(allowed)}.'
        )
    return value


def _read_game_values(raw: Any) -> dict[str, int | None] | None:
    """Accept a mapping by contract key, or a sequence (three, lower, two, one, solo),
    or a 4-long sequence without Lower; ``None`` marks a contract the profile lacks."""
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        values = {c: raw.get(c) for c in CONTRACT_KEYS}
    else:
        seq = list(raw)
        if len(seq) == 5:
            values = dict(zip(CONTRACT_KEYS, seq, strict=True))
        elif len(seq) == 4:
            values = dict(zip(("three", "two", "one", "solo"), seq, strict=True))
            values["lower"] = None
        else:
            raise RulesError(
                f"option game_values: expected 5 values (three, lower, two, one, solo); "
                f"found {len(seq)}."
            )
    return {c: (None if v is None else int(v)) for c, v in values.items()}


@dataclass(frozen=True)
class AuctionOptions:
    """The option keys the auction needs, read and checked once from a rules object.

    * ``takeover_mode`` — ``lower_bid`` (Dummett's Lower, a contract of its own),
      ``beck_once`` (one Unterer per deal against a Dreiblatt), ``loew_any`` (one
      Ablösung per deal against any contract but Solo, with hold and one retake) or
      ``none``;
    * ``hold_rule`` — ``seniority`` (a senior may equal a junior's bid),
      ``takeover_only`` (only the original bidder, in reply to a take-over) or ``none``;
    * ``solo_holdable`` — whether a Solo can be held under the seniority rule;
    * ``jump_bids`` — ``any`` or ``one_step`` (an overcall must be the next contract up;
      the opening bid is free);
    * ``all_pass`` — what happens when nobody bids (``trischaken``, ``redeal`` or
      ``graz_keep_talon``).
    """

    name: str
    takeover_mode: str
    hold_rule: str
    solo_holdable: bool
    jump_bids: str
    all_pass: str
    contracts: tuple[str, ...]
    game_values: dict[str, int | None] | None
    raised_game_values: tuple[int, int] | None

    @classmethod
    def from_rules(cls, rules: Any) -> AuctionOptions:
        """Read the options from any object with the RULES.md 12 attribute names."""
        missing = [k for k in ("takeover_mode", "hold_rule", "solo_holdable", "jump_bids",
                               "all_pass") if not hasattr(rules, k)]
        if missing:
            raise RulesError(f"the rules object lacks the option(s): {', '.join(missing)}.")
        takeover = _choice("takeover_mode", rules.takeover_mode, TAKEOVER_MODES)
        values = _read_game_values(getattr(rules, "game_values", None))
        if values is not None:
            contracts = tuple(c for c in CONTRACT_KEYS if values[c] is not None)
        else:
            # Without game values the contract list follows from the take-over mode:
            # only Dummett's lower_bid auction has a Lower contract.
            contracts = tuple(c for c in CONTRACT_KEYS
                              if c != "lower" or takeover == "lower_bid")
        raised = getattr(rules, "raised_game_values", None)
        if raised is not None:
            raised = tuple(int(v) for v in raised)
            if len(raised) != 2:
                raise RulesError("option raised_game_values: expected 2 values (taken, held/retaken).")
        return cls(
            name=str(getattr(rules, "name", "custom")),
            takeover_mode=takeover,
            hold_rule=_choice("hold_rule", rules.hold_rule, HOLD_RULES),
            solo_holdable=_as_bool("solo_holdable", rules.solo_holdable),
            jump_bids=_choice("jump_bids", rules.jump_bids, JUMP_BIDS),
            all_pass=_choice("all_pass", rules.all_pass, ALL_PASS),
            contracts=contracts,
            game_values=values,
            raised_game_values=raised,
        )

    def game_value(self, contract: str, level: str | None) -> int | None:
        """G of a contract at a level.

        ``taken`` uses the first raised value.  ``held`` uses the second under
        ``beck_once`` (Beck: held = 5) but the first under ``loew_any`` (Löw: "mein
        Spiel" plays at 4); ``retaken`` uses the second (Löw: 5).
        """
        if level is None:
            return None if self.game_values is None else self.game_values[contract]
        if self.raised_game_values is None:
            return None
        taken, second = self.raised_game_values
        if level == "taken":
            return taken
        if level == "held":
            return second if self.takeover_mode == "beck_once" else taken
        return second


def _normalise(text: str) -> str:
    text = text.strip().lower().replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"[\s_\-]+", " ", text)


class Auction:
    """An auction in progress under one rule profile.

    ``Auction(rules)`` takes any object with the RULES.md 12 attributes ``takeover_mode``,
    ``hold_rule``, ``solo_holdable``, ``jump_bids``, ``all_pass`` (and optionally ``name``,
    ``game_values``, ``raised_game_values``).  :meth:`call` applies the next call and
    raises :class:`RulesError` for an illegal one; :attr:`result` is set once
    :attr:`is_over`.

    Seats are 0, 1, 2 = F, M, R; F speaks first and seniority is F > M > R.  A pass
    (or an accept, the same call in the accept-style auctions) is final.  Turns go
    round in playing order, skipping players who are out and the player whose bid
    stands; the one exception is the original bidder's immediate reply to a
    take-over or retake.  The auction ends when only the holder of the standing bid
    is left, or when no other player can do more than drop out (a Solo that cannot
    be held).  Before-talon announcements and auction contras are not calls of this
    engine: they are scenario inputs of the scorer and the solver (RULES.md 11).
    """

    def __init__(self, rules: Any) -> None:
        self.options = AuctionOptions.from_rules(rules)
        self.history: list[tuple[int, str]] = []
        self.active = [True, True, True]
        self.bid: Bid | None = None
        self.to_move: int | None = 0
        self.result: AuctionResult | None = None
        self._takeover_used = False
        self._original: int | None = None  # bidder whose bid was taken over
        self._taker: int | None = None
        self._reply_pending = False  # the original bidder must answer at once
        self._reply_may_hold = False
        self._retake_open = False  # the taker may still retake (loew_any, after a hold)

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def seat_to_move(self) -> str | None:
        return None if self.to_move is None else SEAT_NAMES[self.to_move]

    def legal_calls(self) -> list[str]:
        """The canonical calls open to the player to move (empty once the auction is over)."""
        if self.to_move is None:
            return []
        return self._calls_for(self.to_move)

    def _drop_word(self) -> str:
        # Dummett's players pass; in the accept-style auctions a standing bid is accepted.
        if self.bid is None or self.options.hold_rule == "seniority":
            return PASS
        return ACCEPT

    def _higher_contracts(self, seat: int) -> list[str]:
        """Contracts ``seat`` may name: any higher one, or only the next under one_step."""
        opts = self.options
        ladder = [c for c in opts.contracts if c != "lower"]
        if self.bid is None:
            return ladder
        rank = CONTRACT_KEYS.index(self.bid.contract)
        higher = [c for c in ladder if CONTRACT_KEYS.index(c) > rank]
        if opts.jump_bids == "one_step":
            higher = higher[:1]
        return higher

    def _may_bid_lower(self, seat: int) -> bool:
        bid = self.bid
        return (self.options.takeover_mode == "lower_bid" and "lower" in self.options.contracts
                and bid is not None and bid.contract == "three" and bid.seat < seat)

    def _may_hold_by_seniority(self, seat: int) -> bool:
        bid = self.bid
        return (self.options.hold_rule == "seniority" and bid is not None and bid.seat > seat
                and (bid.contract != "solo" or self.options.solo_holdable))

    def _may_take_over(self, seat: int) -> bool:
        bid, mode = self.bid, self.options.takeover_mode
        if bid is None or self._takeover_used or bid.level is not None or bid.seat == seat:
            return False
        if mode == "beck_once":
            return bid.contract == "three"
        if mode == "loew_any":
            return bid.contract != "solo"
        return False

    def _calls_for(self, seat: int) -> list[str]:
        """Calls open to ``seat`` if it were his turn now."""
        if self.result is not None or not self.active[seat]:
            return []
        if self.bid is not None and self.bid.seat == seat:
            return []
        calls = [self._drop_word()]
        if self._reply_pending:
            if seat != self._original:
                return []
            if self._reply_may_hold:
                calls.append(HOLD)
            calls.extend(self._higher_contracts(seat))
            return calls
        if self._may_bid_lower(seat):
            calls.append("lower")
        calls.extend(self._higher_contracts(seat))
        if self._may_hold_by_seniority(seat):
            calls.append(HOLD)
        if self._may_take_over(seat):
            calls.append(TAKEOVER)
        if (self._retake_open and seat == self._taker and self.bid is not None
                and self.bid.level == "held"):
            calls.append(RETAKE)
        return calls

    # ----------------------------------------------------------------- parsing

    def parse_call(self, text: str) -> str:
        """The canonical call a spelling stands for (RulesError if it is unknown)."""
        key = _normalise(str(text))
        if key == "unterer":
            return "lower" if "lower" in self.options.contracts else TAKEOVER
        call = _ALIASES.get(key)
        if call is None:
            raise RulesError(
                f'unknown call "{text}"; expected pass, accept, hold, takeover, retake or a '
                f'contract ({", ".join(self.options.contracts)}).'
            )
        return call

    # ----------------------------------------------------------------- calls

    def call(self, text: str, seat: str | int | None = None) -> None:
        """Apply the next call.

        ``text`` may start with the caller's seat (``"M Lower"``, ``"R: pass"``); a seat
        may also be given as ``seat``.  Either way it must be the seat to move.
        """
        raw = str(text)
        match = _SEAT_PREFIX.match(raw.strip())
        if match and _normalise(raw) not in _ALIASES:
            seat = match.group(1).upper() if seat is None else seat
            raw = match.group(2)
        if self.result is not None:
            raise RulesError(f'the auction is over ({self.result.describe()}); "{text}" comes too late.')
        mover = self.to_move
        assert mover is not None
        if seat is not None:
            who = seat_index(seat)
            if who != mover:
                reason = ("has dropped out and may no longer speak" if not self.active[who]
                          else "may not speak now")
                raise RulesError(f"{SEAT_NAMES[who]} {reason}; it is {SEAT_NAMES[mover]}'s turn.")
        call = self.parse_call(raw)
        legal = self._calls_for(mover)
        if call in DROP_CALLS:
            call = legal[0]  # pass and accept are one call: drop out
        if call not in legal:
            raise RulesError(
                f'illegal call "{raw.strip()}" by {SEAT_NAMES[mover]}: '
                f'{self._why_illegal(call, mover)} '
                f'Legal calls now: {", ".join(legal)}.'
            )
        self.history.append((mover, call))
        self._apply(mover, call)

    def _why_illegal(self, call: str, seat: int) -> str:
        opts, bid = self.options, self.bid
        current = f"the current bid is {bid.describe()}." if bid else "no bid stands yet."
        if call in CONTRACT_KEYS and call not in opts.contracts:
            return f"profile {opts.name} has no {CONTRACT_NAMES[call]} contract."
        if self._reply_pending:
            return (f"{SEAT_NAMES[seat]} must first answer the take-over of his bid: accept, "
                    f"{'hold or ' if self._reply_may_hold else ''}a higher contract.")
        if call == "lower":
            if opts.takeover_mode != "lower_bid":
                return f"Lower is not a bid under takeover_mode={opts.takeover_mode}."
            if bid is not None and bid.contract != "three":
                return f"Lower must beat the current bid, and only beats a Three; {current}"
            return (f"Lower is legal only over a Three made or held by a player senior to "
                    f"{SEAT_NAMES[seat]}; {current}")
        if call in CONTRACT_KEYS:
            if bid is not None and CONTRACT_KEYS.index(call) <= CONTRACT_KEYS.index(bid.contract):
                return f"{CONTRACT_NAMES[call]} must beat the current bid; {current}"
            return (f"jump bids are not allowed (jump_bids=one_step): the next bid up is "
                    f"{', '.join(self._higher_contracts(seat)) or 'none'}; {current}")
        if call == HOLD:
            if bid is None:
                return "there is no bid to hold."
            if opts.hold_rule == "none":
                return f"profile {opts.name} has no hold (hold_rule=none)."
            if opts.hold_rule == "takeover_only":
                return "only the original bidder may hold, in reply to a take-over."
            if bid.contract == "solo" and not opts.solo_holdable:
                return "a Solo cannot be held (solo_holdable=false)."
            return (f"{SEAT_NAMES[seat]} may hold only a bid made by a junior player "
                    f"(seniority F > M > R); {current}")
        if call == TAKEOVER:
            if opts.takeover_mode not in ("beck_once", "loew_any"):
                return f"there is no take-over under takeover_mode={opts.takeover_mode}."
            if self._takeover_used:
                return "only one take-over is allowed per deal."
            if bid is None:
                return "there is no bid to take over."
            if opts.takeover_mode == "beck_once":
                return f"the Unterer is only possible against a Dreiblatt; {current}"
            return f"a Solo or a raised bid cannot be taken over; {current}"
        if call == RETAKE:
            if opts.takeover_mode != "loew_any":
                return f"there is no retake under takeover_mode={opts.takeover_mode}."
            return "only the taker may retake, once, after the original bidder held."
        return current

    def _apply(self, seat: int, call: str) -> None:
        bid = self.bid
        if seat == self._taker:
            # The retake is only open on the taker's first turn after the hold.
            self._retake_open = False
        if call in DROP_CALLS:
            self.active[seat] = False
            self._reply_pending = False
        elif call in CONTRACT_KEYS:
            self.bid = Bid(call, seat, None)
            self._reply_pending = False
            self._retake_open = False
        elif call == HOLD:
            assert bid is not None
            if self._reply_pending:
                self.bid = Bid(bid.contract, seat, "held")
                self._reply_pending = False
                self._retake_open = self.options.takeover_mode == "loew_any"
            else:
                self.bid = Bid(bid.contract, seat, bid.level)
        elif call == TAKEOVER:
            assert bid is not None
            self._takeover_used = True
            self._original, self._taker = bid.seat, seat
            self.bid = Bid(bid.contract, seat, "taken")
            self._reply_pending, self._reply_may_hold = True, self.options.hold_rule != "none"
        elif call == RETAKE:
            assert bid is not None
            self.bid = Bid(bid.contract, seat, "retaken")
            self._reply_pending, self._reply_may_hold = True, False
        self._advance(seat)

    def _advance(self, last: int) -> None:
        bid = self.bid
        if not any(self.active):
            self._finish(AuctionResult(self.options.all_pass))
            return
        others = [s for s in range(3) if self.active[s] and (bid is None or s != bid.seat)]
        if bid is not None and (not others or (not self._reply_pending and all(
                set(self._calls_for(s)) <= set(DROP_CALLS) for s in others))):
            self._finish(AuctionResult(
                "game", bid.seat, bid.contract, bid.level,
                self.options.game_value(bid.contract, bid.level)))
            return
        if self._reply_pending:
            self.to_move = self._original
            return
        for step in (1, 2, 3):
            seat = (last + step) % 3
            if self.active[seat] and (bid is None or seat != bid.seat):
                self.to_move = seat
                return
        raise AssertionError("no player to move in an open auction")

    def _finish(self, result: AuctionResult) -> None:
        self.result = result
        self.to_move = None


def run_auction(rules: Any, calls: list[str] | tuple[str, ...]) -> Auction:
    """Play a sequence of calls (each may carry a seat prefix) and return the auction."""
    auction = Auction(rules)
    for text in calls:
        auction.call(text)
    return auction


def may_ever_call(rules: Any, seat: int, call: str, *, depth: int = 9) -> bool:
    """Is there an auction under ``rules`` in which ``seat`` (0 F, 1 M, 2 R) may make
    ``call`` (a canonical call, e.g. ``"lower"``)?  Every sequence of legal calls up to
    ``depth`` calls is tried (the auctions are short, so this is exhaustive)."""
    frontier = [Auction(rules)]
    for _ in range(depth + 1):
        nxt = []
        for a in frontier:
            if a.is_over:
                continue
            calls = a.legal_calls()
            if a.to_move == seat and call in calls:
                return True
            for c in calls:
                b = copy.deepcopy(a)
                b.call(c)
                nxt.append(b)
        frontier = nxt
    return False
