"""What the adviser needs from a rule profile, in one place.

The adviser asks three things of the rules: which announcements exist at which
level in a contract, how to score an outcome (through the project's scoring
calculator), and a few option keys.  Keeping them here means the rest of the
adviser never touches profile details.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rules
from .announcements import BIRD_ITEMS, CARD_POINT_ITEMS, AnnSet
from .evaluate import ScoreFn


@dataclass(frozen=True)
class RulesView:
    """The adviser's questions to one rule profile (loaded once by the caller)."""

    rules: Rules

    @property
    def discard_mode(self) -> str:
        return self.rules.discard_tarock

    @property
    def redeal_no_tarock(self) -> bool:
        return bool(self.rules.redeal_no_tarock)

    def item_levels(self, contract: str, items: tuple[str, ...] = CARD_POINT_ITEMS
                    ) -> dict[str, tuple[str, ...]]:
        """Levels at which the declarer may announce each of ``items`` (the card-point
        items; :data:`~.announcements.BIRD_ITEMS` for the birds) in ``contract``.

        Solo has only the after-talon level (RULES.md 5.1, every profile).
        """
        out: dict[str, tuple[str, ...]] = {}
        for item in items:
            levels = tuple(self.rules.announcement_levels(item))
            if contract == "solo":
                levels = tuple(lv for lv in levels if lv == "after")
            if levels:
                out[item] = levels
        return out

    def bird_levels(self, contract: str) -> dict[str, tuple[str, ...]]:
        """Levels at which the declarer may announce each bird in ``contract``."""
        return self.item_levels(contract, BIRD_ITEMS)

    def score_fn(self, contras: dict[str, str] | None = None) -> ScoreFn:
        """``(contract, declarer, annset, thirds, valat, dealt, hand_after, defenders)``
        → ``(net_declarer, made)`` through the scoring calculator; with ``seat=`` the
        net is that seat's instead (a defender's own, hand bonuses included).
        ``contras``: the contra stages said (e.g. ``{"game": "a"}``), none by default."""
        from ..scoring import ScoreInput, score

        rules = self.rules

        def fn(contract: str, declarer: int, annset: AnnSet, thirds: int, valat: bool,
               dealt: int, hand_after: int, defenders: tuple[int, int], *,
               seat: int | None = None) -> tuple[float, bool]:
            dealt_hands = [0, 0, 0]
            dealt_hands[declarer] = dealt
            dealt_hands[(declarer + 1) % 3] = defenders[0]
            dealt_hands[(declarer + 2) % 3] = defenders[1]
            inp = ScoreInput(
                contract=contract,
                declarer=declarer,
                declarer_thirds=thirds,
                announcements=dict(annset),
                valat=valat,
                declarer_hand=hand_after,
                dealt=(dealt_hands[0], dealt_hands[1], dealt_hands[2]),
                contras=dict(contras or {}),
            )
            res = score(rules, inp)
            net = res.net_declarer if seat is None else res.nets[seat]
            return float(net), bool(res.made)

        return fn
