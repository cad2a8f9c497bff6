"""The scoring calculator: one deal's outcome -> written amounts and zero-sum nets.

RULES.md sections 5-8: :func:`score` turns a :class:`ScoreInput` (what happened) into a
:class:`ScoreResult` with itemised :class:`ScoreLine` rows; Trischaken has its own
function, :func:`score_trischaken`.  Where RULES.md leaves a gap, the reading chosen is
listed in RULES.md 11.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from .cards import INDEX_OF, KINGS_MASK, TRULL_MASK, popcount, round_points, thirds_of
from .errors import RulesError
from .rules import (
    BIRD_KEYS,
    BIRD_TRICK,
    DECLARATION_KEYS,
    HAND_KEYS,
    ITEM_TITLES,
    SEAT_NAMES,
    TALON_CARDS,
    TARGET_KEYS,
    TARGET_POINTS,
    Rules,
    item_name,
    seat_index,
)
from .rules.scenario import Announcement, Option, format_option, parse_option

__all__ = [
    "BirdOutcome", "Option", "ScoreInput", "ScoreLine", "ScoreResult", "TrischakenResult",
    "bird_outcomes_from_state", "format_option", "nets_of", "option_of", "parse_option",
    "score", "score_trischaken", "thirds_from_points",
]

#: Cards each "no ..." declaration says the declarer does not hold.
NO_CARDS_MASK = {"no_trull": TRULL_MASK, "no_kings": KINGS_MASK}


def hand_class(hand: int) -> tuple[int, int]:
    """What the score sheet reads of a hand, birds aside: how many Trull cards and Kings
    it holds (Trull and Köpfe are three and two Trull cards, the Kings bonus four Kings,
    a "no Trull" or "no Kings" is broken by any one; RULES.md 5.5, 6.2).  Two hands of
    one class score alike."""
    return (hand & TRULL_MASK).bit_count(), (hand & KINGS_MASK).bit_count()
#: Order of the graded ladder (RULES.md 6.3).
GRADED_LADDER = ("absolut", "kramerpoi", "valat")
#: Hand-premium families: a premium judged on announcement is not judged again silently.
HAND_FAMILY = {"trull": "trull", "koepfe": "trull", "kings": "kings"}


# ----------------------------------------------------------------- input


@dataclass(frozen=True)
class BirdOutcome:
    """How a bird card was played: by ``holder`` in ``trick`` (1-16), won by ``winner``.

    ``trick=None`` means the card was never played to a trick (it was
    discarded); ``winner`` is then None too.
    """

    holder: int
    trick: int | None
    winner: int | None

    def __post_init__(self) -> None:
        for label, seat in (("holder", self.holder), ("winner", self.winner)):
            if seat is not None and seat not in (0, 1, 2):
                raise RulesError(f"bird outcome: {label} must be a seat 0/1/2 (F/M/R); got {seat}.")
        if self.trick is None:
            if self.winner is not None:
                raise RulesError("bird outcome: a card that was not played has no trick winner.")
        elif not 1 <= self.trick <= 16 or self.winner is None:
            raise RulesError(
                f"bird outcome: trick must be 1-16 with a winner; got trick {self.trick}."
            )


@dataclass(frozen=True)
class ScoreInput:
    """What happened in one deal, as far as scoring needs it.

    ``announcements`` are the declarer's (name -> ``after``/``before``);
    ``defender_announcements`` maps a defender's seat to his own announcements.
    ``contras`` maps ``game`` or an announced item to its stages (``a``/``b`` per
    step, NOTATION 5.3).  ``birds`` holds the outcome of every bird card played
    (or announced); the silent items follow from it.  ``declarer_hand`` is the
    declarer's hand after the exchange and ``dealt`` the three dealt hands, as
    bit masks, for hand bonuses and declarations; None = unknown (not scored).
    ``broken`` lists before-talon declarations broken by the taken talon cards
    (derived from ``declarer_hand`` when that is known).
    ``declarer_thirds`` may be None only when the game ended at the talon.
    """

    contract: str
    declarer: int = 0
    declarer_thirds: int | None = None
    level: str | None = None
    announcements: Mapping[str, str] = field(default_factory=dict)
    defender_announcements: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    contras: Mapping[str, str] = field(default_factory=dict)
    birds: Mapping[str, BirdOutcome] = field(default_factory=dict)
    valat: bool = False
    declarer_hand: int | None = None
    dealt: tuple[int | None, int | None, int | None] = (None, None, None)
    broken: tuple[str, ...] = ()

    @classmethod
    def from_game(cls, contract: str, declarer: int, state: object, *,
                  discard: int = 0, **kwargs: object) -> ScoreInput:
        """Build the input from a finished :class:`tarock_solver.play.GameState`.

        The declarer's thirds are his tricks plus ``discard`` (the mask of his
        discarded cards, which count for him); Valat and the bird outcomes come
        from the tricks.  Other fields (announcements, contras, hands) go in
        ``kwargs``.
        """
        if not getattr(state, "is_over", False):
            raise RulesError("the game is not finished; every card must be played first.")
        thirds = state.pile_thirds(declarer) + (thirds_of(discard) if discard else 0)
        fields_: dict[str, object] = {
            "declarer_thirds": thirds,
            "valat": state.first_trick == 1 and state.tricks_won[declarer] == 16,
            "birds": bird_outcomes_from_state(state),
        }
        fields_.update(kwargs)
        return cls(contract=contract, declarer=declarer, **fields_)  # type: ignore[arg-type]

    def with_option(self, option: Option | str) -> ScoreInput:
        """This input with the level, announcements and contras of an ``option``."""
        opt = parse_option(option) if isinstance(option, str) else option
        return replace(
            self,
            level=opt.level,
            announcements=opt.declarer_announcements(),
            defender_announcements=opt.defender_announcements(),
            contras=dict(opt.contras),
        )


def option_of(inp: ScoreInput, settings: Mapping[str, str] | None = None) -> str:
    """The NOTATION 5.3 ``option`` string of an input's scenario."""
    anns = [Announcement(item_name(n), lv) for n, lv in inp.announcements.items()]
    for seat, items in inp.defender_announcements.items():
        anns.extend(Announcement(item_name(n), lv, seat_index(seat)) for n, lv in items.items())
    contras = tuple((o if o == "game" else item_name(o), s) for o, s in inp.contras.items())
    return format_option(Option(inp.level, tuple(anns), contras, tuple((settings or {}).items())))


def thirds_from_points(contract: str, points: int) -> int:
    """The thirds of a declarer pile of rounded points P in ``contract``.

    The talon share fixes the fraction (RULES.md 1.4): Three/Lower/Solo piles
    are whole, a Two pile is whole + ⅔ (3P − 1), a One pile whole + ⅓ (3P + 1).
    """
    taken = TALON_CARDS.get(contract)
    if taken is None:
        raise RulesError(f'unknown contract "{contract}".')
    return 3 * points + {0: 0, 3: 0, 2: -1, 1: 1}[taken]


def bird_outcomes_from_state(state: object) -> dict[str, BirdOutcome]:
    """The outcome of every bird card played in a :class:`~tarock_solver.play.GameState`."""
    out: dict[str, BirdOutcome] = {}
    for bird in BIRD_KEYS:
        played = state.card_played_in(INDEX_OF[f"T{BIRD_KEYS.index(bird) + 1}"])
        if played is None:
            continue
        winner = state.winner_of_trick(played.trick)
        if winner is not None:
            out[bird] = BirdOutcome(played.seat, played.trick, winner)
    return out


# ----------------------------------------------------------------- output


@dataclass(frozen=True)
class ScoreLine:
    """One written amount: ``amount`` written by each seat in ``writers``."""

    item: str
    writers: tuple[int, ...]
    amount: int
    why: str

    @property
    def title(self) -> str:
        return ITEM_TITLES.get(self.item, self.item)


@dataclass(frozen=True)
class ScoreResult:
    """A scored deal: per-seat written amounts and nets (F, M, R), the NOTATION 5.3
    result columns, and the itemised lines that add up to ``written``.

    A game that ends at the talon (``pre_no_cards_break=lose_game``) has no card
    points: ``points`` is T − 1 and ``points_thirds``/``margin_thirds`` are None.
    """

    written: tuple[int, int, int]
    nets: tuple[int, int, int]
    net_declarer: int
    declarer: int
    points: int
    points_thirds: int | None
    made: bool
    margin_thirds: int | None
    game_value: int
    multiplier: int
    birds: str
    valat: bool
    lines: tuple[ScoreLine, ...]


@dataclass(frozen=True)
class TrischakenResult:
    """A scored Trischaken: written amounts, nets and the losing seat(s)."""

    written: tuple[int, int, int]
    nets: tuple[int, int, int]
    losers: tuple[int, ...]
    lines: tuple[ScoreLine, ...]


def nets_of(written: Sequence[int]) -> tuple[int, ...]:
    """Zero-sum nets of written amounts: n·w_i − Σw (RULES.md 7)."""
    total = sum(written)
    return tuple(len(written) * w - total for w in written)


# ----------------------------------------------------------------- scoring


def _times(value: int, m: int, c: int = 1, multiplied: bool = True) -> str:
    text = str(value)
    if multiplied:
        text += f" × m {m}"
    if c != 1:
        text += f" × contra {c}"
    return text


class _Deal:
    """Validated view of one ScoreInput under one Rules; builds the lines."""

    def __init__(self, rules: Rules, inp: ScoreInput) -> None:
        self.rules = rules
        self.inp = inp
        self.contract = rules.contract_key(inp.contract)
        self.decl = seat_index(inp.declarer)
        self.defs = ((self.decl + 1) % 3, (self.decl + 2) % 3)
        self.m = rules.multiplier(self.contract)
        self.level = inp.level.strip().lower() if inp.level else None
        self.G = rules.game_value(self.contract, self.level)
        self.lines: list[ScoreLine] = []
        self.bird_notes: list[str] = []
        self._read_announcements()
        self._read_contras()
        self._read_hands_and_breaks()
        self._read_points()

    # --- validation -------------------------------------------------------------

    def _check_level(self, name: str, level: str, who: str) -> str:
        lv = str(level).strip().lower()
        if lv not in ("after", "before"):
            raise RulesError(f'{who} announcement {name}: level "{level}" must be after or before.')
        if lv == "before" and self.contract == "solo":
            raise RulesError(
                f"{name} cannot be announced before the talon in a Solo: Solo has only the "
                "after-talon level."
            )
        return lv

    def _read_announcements(self) -> None:
        rules = self.rules
        decl: dict[str, str] = {}
        for raw, level in self.inp.announcements.items():
            name = item_name(raw)
            if name in decl:
                raise RulesError(f"{name} is announced twice.")
            lv = self._check_level(name, level, "declarer's")
            if rules.announcement_value(name, lv) is None:
                possible = rules.announcement_levels(name)
                hint = (f"possible: {', '.join(possible)} the talon" if possible
                        else "it cannot be announced in this profile")
                raise RulesError(
                    f"{name} cannot be announced {lv} the talon in the {rules.name} profile; "
                    f"{hint}."
                )
            decl[name] = lv
        hand_named = [n for n in decl if n in HAND_KEYS and HAND_FAMILY[n] == "trull"]
        if len(hand_named) > 1:
            raise RulesError("trull and koepfe exclude each other; announce only one.")
        if rules.graded_targets_cumulative:
            for rung, name in enumerate(GRADED_LADDER):
                if name in decl:
                    for lower in GRADED_LADDER[:rung]:
                        if lower not in decl and rules.announcement_value(lower, decl[name]):
                            decl[lower] = decl[name]
        self.decl_ann = decl

        defender: dict[int, dict[str, str]] = {}
        owners = {n: self.decl for n in decl}
        allowed = rules.defender_items()
        for raw_seat, items in self.inp.defender_announcements.items():
            seat = seat_index(raw_seat)
            if seat == self.decl:
                raise RulesError(
                    f"seat {SEAT_NAMES[seat]} is the declarer; give his announcements as the "
                    "declarer's, not as a defender's."
                )
            for raw, level in items.items():
                name = item_name(raw)
                if name not in allowed:
                    what = ", ".join(allowed) if allowed else "nothing"
                    raise RulesError(
                        f"a defender cannot announce {name} in the {rules.name} profile "
                        f"(defender_announcements={rules.defender_announcements}: {what})."
                    )
                lv = self._check_level(name, level, "defender's")
                if lv != "after":
                    raise RulesError(
                        f"a defender announces {name} after the talon only (before the talon "
                        "only the declarer announces)."
                    )
                if name in owners:
                    raise RulesError(
                        f"{name} is announced by {SEAT_NAMES[owners[name]]} and "
                        f"{SEAT_NAMES[seat]}; only one player can hold it."
                    )
                owners[name] = seat
                defender.setdefault(seat, {})[name] = lv
        self.def_ann = defender
        self.owner = owners

        targets = [t for t in TARGET_KEYS if t in decl]
        if rules.point_target_mode == "additive" and rules.graded_targets_cumulative:
            self.targets_in_force = targets
        else:
            self.targets_in_force = targets[-1:]  # Kramerpoi replaces an Absolut
        self.lapsed = [t for t in targets if t not in self.targets_in_force]
        self.replace_target = (self.targets_in_force[0]
                               if rules.point_target_mode == "replace" and self.targets_in_force
                               else None)

    def _read_contras(self) -> None:
        rules = self.rules
        self.contra: dict[str, int] = {}
        self.contra_stages: dict[str, str] = {}
        for raw, stages in self.inp.contras.items():
            obj = "game" if str(raw).strip().lower() == "game" else item_name(raw)
            st = str(stages).strip().lower()
            if not st or any(ch not in "ab" for ch in st):
                raise RulesError(
                    f'contra on {obj}: stages "{stages}" must be letters a (after the talon) '
                    "or b (before it), one per step, e.g. a, aa, ba."
                )
            if "ab" in st:
                raise RulesError(
                    f'contra on {obj}: "{stages}" puts a before-talon step after an after-talon one.'
                )
            if len(st) > rules.contra_max_level:
                raise RulesError(
                    f"contra on {obj}: {len(st)} steps, but the {rules.name} profile allows "
                    f"{rules.contra_max_level} (contra_max_level)."
                )
            if "b" in st and self.contract == "solo":
                raise RulesError(
                    f"contra on {obj}: a Solo has no before-talon level; use a."
                )
            if obj != "game":
                self._check_contra_object(obj, st)
            if not rules.contra_binds_partner:
                raise RulesError(
                    "contra_binds_partner=false cannot be scored: a contra binding one defender "
                    "only has no written form (RULES.md 7); set it to true."
                )
            self.contra[obj] = rules.contra_factor(st)
            self.contra_stages[obj] = st

    def _check_contra_object(self, obj: str, stages: str) -> None:
        rules = self.rules
        if obj not in self.owner:
            raise RulesError(
                f"contra on {obj}: only the game and announced items can be contra'd; "
                f"{obj} was not announced."
            )
        if obj in HAND_KEYS:
            raise RulesError(f"contra on {obj}: hand bonuses can never be contra'd.")
        if obj in self.lapsed:
            raise RulesError(f"contra on {obj}: it was replaced by the higher target.")
        if obj == self.replace_target or (
                obj in DECLARATION_KEYS and rules.contra_scope == "with_declarations"):
            raise RulesError(
                f"contra on {obj}: it is covered by the game contra here "
                f"(contra_scope={rules.contra_scope}, point_target_mode={rules.point_target_mode});"
                " contra the game instead."
            )
        level = self.decl_ann.get(obj) or self.def_ann.get(self.owner[obj], {}).get(obj)
        if level == "after" and "b" in stages:
            raise RulesError(
                f"contra on {obj}: it was announced after the talon, so it cannot be "
                "contra'd before the talon (use a)."
            )

    def _read_hands_and_breaks(self) -> None:
        inp = self.inp
        if len(inp.dealt) != 3:
            raise RulesError("dealt hands: give three entries (F, M, R), None for unknown.")
        hand = inp.declarer_hand
        if hand is None and self.contract == "solo":
            hand = inp.dealt[self.decl]  # no exchange in a Solo
        self.hand_after = hand
        self.hand_dealt = inp.dealt[self.decl]
        explicit = set()
        for raw in inp.broken:
            name = item_name(raw)
            if name not in DECLARATION_KEYS or self.decl_ann.get(name) != "before":
                raise RulesError(
                    f"broken {name}: only a No Trull / No Kings announced before the talon can "
                    "be broken by the talon."
                )
            explicit.add(name)
        derived = set()
        for name in DECLARATION_KEYS:
            level = self.decl_ann.get(name)
            if level is None:
                continue
            mask = NO_CARDS_MASK[name]
            if level == "before" and self.hand_dealt is not None and self.hand_dealt & mask:
                raise RulesError(
                    f"{name} announced before the talon, but the declarer's dealt hand holds "
                    "such a card."
                )
            if level == "after" and hand is not None and hand & mask:
                raise RulesError(
                    f"{name} announced after the talon, but the declarer's hand after the "
                    "exchange holds such a card."
                )
            if level == "before" and hand is not None and hand & mask:
                derived.add(name)
        if hand is not None and explicit - derived:
            raise RulesError(
                f"broken {', '.join(sorted(explicit - derived))}: the declarer's hand after "
                "the exchange holds none of those cards."
            )
        self.broken = explicit | derived
        if self.broken and self.contract == "solo":
            raise RulesError("a Solo has no talon exchange, so nothing can break a declaration.")
        self.no_play = bool(self.broken) and self.rules.pre_no_cards_break == "lose_game"

    def _read_points(self) -> None:
        inp = self.inp
        if self.no_play:
            late = [n for n, lv in self.decl_ann.items() if lv == "after"]
            late += [n for items in self.def_ann.values() for n in items]
            if late or any("a" in s for s in self.contra_stages.values()):
                raise RulesError(
                    "the game ended at the talon (pre_no_cards_break=lose_game), so nothing can "
                    "be announced or contra'd after the talon."
                )
            if inp.birds or inp.valat:
                raise RulesError(
                    "the game ended at the talon (pre_no_cards_break=lose_game); no card was "
                    "played, so there are no bird outcomes and no Valat."
                )
            self.thirds = None
            return
        thirds = inp.declarer_thirds
        if thirds is None:
            raise RulesError("the declarer's card points are missing (give points or thirds).")
        residue = (-2 * TALON_CARDS[self.contract]) % 3
        if not 0 <= thirds <= 210 or thirds % 3 != residue:
            kind = {0: "a whole number", 1: "a whole number + ⅓", 2: "a whole number + ⅔"}[residue]
            raise RulesError(
                f"declarer's pile of {thirds} thirds is impossible in a {self.contract}: it is "
                f"always {kind} of points (thirds ≡ {residue} mod 3, 0 to 210)."
            )
        self.thirds = thirds
        for bird, out in inp.birds.items():
            if bird not in BIRD_KEYS:
                raise RulesError(f'unknown bird "{bird}"; birds are {", ".join(BIRD_KEYS)}.')
            if inp.valat and out.winner is not None and out.winner != self.decl:
                raise RulesError(
                    f"Valat means the declarer won every trick, but {bird}'s trick "
                    f"{out.trick} was won by {SEAT_NAMES[out.winner]}."
                )

    # --- items ------------------------------------------------------------------

    def _write(self, item: str, success: bool, owners: tuple[int, ...], amount: int,
               why: str) -> None:
        """Success: the owners write; failure: the opposing side writes."""
        if amount == 0:
            return
        if success:
            writers = owners
        elif owners == (self.decl,):
            writers = self.defs
        else:
            writers = (self.decl,)
        self.lines.append(ScoreLine(item, writers, amount, why))

    def score(self) -> ScoreResult:
        rules, m = self.rules, self.m
        target_points = TARGET_POINTS[self.replace_target] if self.replace_target else 36
        if self.no_play:
            points, made = target_points - 1, False
        else:
            assert self.thirds is not None
            points = round_points(self.thirds)
            made = (points >= target_points if self.replace_target
                    else self.thirds >= rules.win_thirds)
        self.points, self.made = points, made

        self._game(target_points)
        self._declarations()
        self._additive_targets()
        self._birds()
        valat_lines = self._valat()
        self._hands()
        self._valat_multiplier(valat_lines)

        written = [0, 0, 0]
        for line in self.lines:
            for seat in line.writers:
                written[seat] += line.amount
        nets = nets_of(written)
        if self.thirds is None:
            margin = None
        elif self.replace_target:
            margin = self.thirds - (3 * target_points - 1)
        else:
            margin = self.thirds - rules.win_thirds
        return ScoreResult(
            written=(written[0], written[1], written[2]),
            nets=(nets[0], nets[1], nets[2]),
            net_declarer=nets[self.decl],
            declarer=self.decl,
            points=points,
            points_thirds=self.thirds,
            made=made,
            margin_thirds=margin,
            game_value=self.game_value,
            multiplier=m,
            birds=";".join(self.bird_notes),
            valat=bool(self.inp.valat),
            lines=tuple(self.lines),
        )

    def _game(self, T: int) -> None:
        rules, m = self.rules, self.m
        c = self.contra.get("game", 1)
        if self.replace_target:
            value = rules.target_value(self.replace_target, self.decl_ann[self.replace_target])
            assert value is not None
            label = f"{ITEM_TITLES[self.replace_target]} {self.decl_ann[self.replace_target]}"
            if self.contract == "lower" and rules.lower_bonus_with_target == "keep_plus1":
                value += 1
                label += " + 1 (Lower)"
        else:
            value, label = self.G, f"G{f' ({self.level})' if self.level else ''}"
        self.game_value = value
        owners = (self.decl,)
        verdict = "made" if self.made else ("ended at the talon" if self.no_play else "lost")
        self._write("game", self.made, owners, value * m * c,
                    f"{label} {_times(value, m, c)}; P {self.points}, {verdict}")
        if self.no_play or (rules.loew_target_suppresses_overshoot and self.decl_ann.keys()
                            & set(TARGET_KEYS)):
            return
        base = T if rules.overshoot_base == "target" else 35
        if self.made:
            extra, why = max(0, self.points - base), f"P {self.points} − {base}"
        else:
            top = base - 1 if rules.overshoot_base == "target" else base
            extra, why = max(0, top - self.points), f"{top} − P {self.points}"
        self._write("overshoot", self.made, owners, extra * m * c,
                    f"{why} = {extra}, {_times(extra, m, c)}")

    def _declarations(self) -> None:
        rules = self.rules
        for name in DECLARATION_KEYS:
            level = self.decl_ann.get(name)
            if level is None:
                continue
            value = rules.declaration_value(name, level)
            assert value is not None
            c = (self.contra.get("game", 1) if rules.contra_scope == "with_declarations"
                 else self.contra.get(name, 1))
            ok = self.made and name not in self.broken
            why = "broken by the talon" if name in self.broken else (
                "game made" if self.made else "game lost")
            self._write(name, ok, (self.decl,), value * self.m * c,
                        f"{level} {_times(value, self.m, c)}; {why}")

    def _additive_targets(self) -> None:
        if self.replace_target:
            return
        for name in self.targets_in_force:
            level = self.decl_ann[name]
            value = self.rules.target_value(name, level)
            assert value is not None
            c = self.contra.get(name, 1)
            ok = not self.no_play and self.points >= TARGET_POINTS[name]
            self._write(name, ok, (self.decl,), value * self.m * c,
                        f"{level} {_times(value, self.m, c)}; P {self.points} "
                        f"{'≥' if ok else '<'} {TARGET_POINTS[name]}")

    def _birds(self) -> None:
        rules, inp = self.rules, self.inp
        for bird in BIRD_KEYS:
            owner = self.owner.get(bird)
            out = inp.birds.get(bird)
            announced_level = (self.decl_ann.get(bird) if owner == self.decl
                               else self.def_ann.get(owner, {}).get(bird) if owner is not None
                               else None)
            if owner is None:
                if out is None or out.trick != BIRD_TRICK[bird]:
                    continue  # a silent bird exists only when played to its trick
                value = rules.bird_value(bird, "silent")
                if value is None:
                    continue
                level, holder = "silent", out.holder
            else:
                assert announced_level is not None
                level, holder = announced_level, owner
                value = rules.bird_value(bird, level)
                assert value is not None
                if out is None and not self.no_play:
                    raise RulesError(
                        f"{bird} was announced: give its outcome (holder, trick, winner), e.g. "
                        f"{bird}:holder={SEAT_NAMES[owner]},trick={BIRD_TRICK[bird]},winner=..."
                    )
                if out is not None and out.holder != owner:
                    raise RulesError(
                        f"{bird} was announced by {SEAT_NAMES[owner]} but played by "
                        f"{SEAT_NAMES[out.holder]}; only the holder may announce it."
                    )
            side = "decl" if holder == self.decl else "def"
            if holder == self.decl:
                owners: tuple[int, ...] = (self.decl,)
            elif owner is not None:
                owners = (holder,)  # a defender's own announcement: written by him alone
            else:
                owners = self.defs
            in_trick = out is not None and out.trick == BIRD_TRICK[bird]
            won = in_trick and out is not None and out.winner == holder
            partner = (in_trick and out is not None and holder != self.decl
                       and out.winner != self.decl and out.winner != holder)
            if partner and rules.partner_capture == "void":
                self.bird_notes.append(f"{bird}@{side}:void")
                continue
            self.bird_notes.append(f"{bird}@{side}:{'won' if won else 'lost'}")
            c = self.contra.get(bird, 1)
            if self.no_play:
                how = "the game ended at the talon"
            elif out is None or out.trick is None:
                how = "not played"
            elif not in_trick:
                how = f"played in trick {out.trick}, not {BIRD_TRICK[bird]}"
            else:
                how = (f"won trick {out.trick}" if won
                       else f"trick {out.trick} won by {SEAT_NAMES[out.winner]}")
            self._write(bird, won, owners, value * self.m * c,
                        f"{level} {_times(value, self.m, c)}; {how}")

    def _valat(self) -> tuple[str, int, int] | None:
        """Fixed Valat item; for ``multiplier`` returns (level, value, contra) to apply later."""
        rules = self.rules
        if not rules.has_valat:
            return None  # no such item; an announcement of it was refused earlier
        level = self.decl_ann.get("valat", "silent")
        if level == "silent" and not self.inp.valat:
            return None
        value = rules.valat.value(level)
        if value is None:
            return None
        c = self.contra.get("valat", 1)
        ok = bool(self.inp.valat) and not self.no_play
        if rules.valat.mode == "multiplier" and ok:
            return (level, value, c)
        self._write("valat", ok, (self.decl,), value * self.m * c,
                    f"{level} {_times(value, self.m, c)}; "
                    f"{'all 16 tricks' if ok else 'not every trick'}")
        return None

    def _valat_multiplier(self, pending: tuple[str, int, int] | None) -> None:
        if pending is None:
            return
        level, value, c = pending
        factor = value * c
        team = sum(line.amount for line in self.lines
                   if line.writers == (self.decl,) and line.item not in HAND_KEYS)
        self._write("valat", True, (self.decl,), (factor - 1) * team,
                    f"{level}: the declarer's score {team} × {factor}")

    def _holding(self, seat: int, level: str) -> int | None:
        """The hand a hand premium is judged on (RULES.md 5.5; 6.2 for before-talon ones)."""
        if seat != self.decl:
            return self.inp.dealt[seat]
        if level == "before" or self.rules.hand_bonus_time == "as_dealt":
            if self.hand_dealt is None and self.contract == "solo":
                return self.hand_after  # no exchange: the hand after it is the dealt hand
            return self.hand_dealt
        return self.hand_after

    @staticmethod
    def _holds(name: str, hand: int) -> bool:
        trull = popcount(hand & TRULL_MASK)
        if name == "trull":
            return trull == 3
        if name == "koepfe":
            return trull == 2
        return hand & KINGS_MASK == KINGS_MASK

    def _hands(self) -> None:
        rules = self.rules
        mult = self.m if rules.hand_bonus_multiplied else 1
        for seat in range(3):
            announced = (self.decl_ann if seat == self.decl else self.def_ann.get(seat, {}))
            judged = set()
            for name in HAND_KEYS:
                level = announced.get(name)
                if level is None:
                    continue
                judged.add(HAND_FAMILY[name])
                hand = self._holding(seat, level)
                if hand is None:
                    raise RulesError(
                        f"{name} was announced by {SEAT_NAMES[seat]}: give that hand (or its "
                        "hand bonuses) to judge it."
                    )
                value = rules.hand_premium_value(name, level)
                assert value is not None
                ok = self._holds(name, hand)
                self._write(name, ok, (seat,), value * mult,
                            f"{level} {_times(value, self.m, 1, rules.hand_bonus_multiplied)}; "
                            f"{'held' if ok else 'not held'} by {SEAT_NAMES[seat]}")
            hand = self._holding(seat, "silent")
            if hand is None:
                continue
            for name in HAND_KEYS:
                value = rules.hand_bonus(name)
                if value is None or HAND_FAMILY[name] in judged or not self._holds(name, hand):
                    continue
                self.lines.append(ScoreLine(
                    name, (seat,), value * mult,
                    f"silent {_times(value, self.m, 1, rules.hand_bonus_multiplied)}; "
                    f"held by {SEAT_NAMES[seat]}"))


def score(rules: Rules, inp: ScoreInput) -> ScoreResult:
    """Score one deal (RULES.md 5-7): written amounts, nets and itemised lines.

    A deal is scored as a list of *items* (game, over/under points, targets,
    declarations, birds, Valat, hand bonuses).  Each item has a value, is multiplied
    by m where the rules say so and by its contra factor, and is written by its
    owner's side on success or by the other side on failure; "the defenders write X"
    means each defender writes the full X.  The nets are ``3·w_i − Σw`` (RULES.md 7).
    """
    return _Deal(rules, inp).score()


def score_trischaken(rules: Rules, points_per_seat: Sequence[int],
                     tricks_per_seat: Sequence[int]) -> TrischakenResult:
    """Score a Trischaken (RULES.md 8) from each seat's card points and tricks taken.

    The loser is the player with the most card points; every other player
    writes ``trischaken_value`` and, if he took no trick, ``trischaken_trickless_bonus``
    more.  A three-way tie writes nothing.
    """
    value, bonus = rules.trischaken_value, rules.trischaken_trickless_bonus
    if value is None or bonus is None:
        raise RulesError(
            f"the {rules.name} profile has no Trischaken (all_pass={rules.all_pass}); "
            "set --opt trischaken_value=5 --opt trischaken_trickless_bonus=5 to score one."
        )
    points, tricks = list(points_per_seat), list(tricks_per_seat)
    if len(points) != 3 or len(tricks) != 3:
        raise RulesError("Trischaken: give card points and tricks for the three seats F, M, R.")
    if any(p < 0 for p in points) or sum(points) > 70:
        raise RulesError(f"Trischaken: card points {points} must be ≥ 0 and add up to at most 70.")
    if any(t < 0 for t in tricks) or sum(tricks) != 16:
        raise RulesError(f"Trischaken: tricks {tricks} must be ≥ 0 and add up to 16.")
    for seat in range(3):
        if (tricks[seat] == 0) != (points[seat] == 0):
            raise RulesError(
                f"Trischaken: seat {SEAT_NAMES[seat]} has {points[seat]} points from "
                f"{tricks[seat]} tricks; every trick is worth at least 1 point."
            )
    top = max(points)
    losers = tuple(s for s in range(3) if points[s] == top)
    lines: list[ScoreLine] = []
    if len(losers) < 3:
        for seat in range(3):
            if seat in losers:
                continue
            lines.append(ScoreLine("trischaken", (seat,), value,
                                   f"{SEAT_NAMES[seat]} is not a loser ({points[seat]} < {top})"))
            if tricks[seat] == 0 and bonus:
                lines.append(ScoreLine("trickless", (seat,), bonus,
                                       f"{SEAT_NAMES[seat]} took no trick"))
    written = [0, 0, 0]
    for line in lines:
        for seat in line.writers:
            written[seat] += line.amount
    nets = nets_of(written)
    return TrischakenResult((written[0], written[1], written[2]), (nets[0], nets[1], nets[2]),
                            losers, tuple(lines))
