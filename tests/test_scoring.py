"""The scoring calculator against every vector of RULES.md 10.1-10.4 (S1-S3).

Expected amounts are worked out by hand from the rule text in the comments;
the declarer is F and the defenders B = M and C = R unless a test says otherwise.
The declarer's pile is given in thirds, derived by hand: a Three/Lower/Solo pile
is whole (3P), a Two pile is whole + ⅔ (3P − 1), a One pile whole + ⅓ (3P + 1).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tarock_cli.commands._outcome import input_from_dict

from tarock_solver.cards import FULL_MASK, INDEX_OF, KINGS_MASK, round_points, thirds_of, wins
from tarock_solver.errors import RulesError
from tarock_solver.play import GameState
from tarock_solver.rules import load_rules
from tarock_solver.scoring import (
    BirdOutcome,
    ScoreInput,
    ScoreResult,
    bird_outcomes_from_state,
    option_of,
    score,
    score_trischaken,
    thirds_from_points,
)

F, M, R = 0, 1, 2


def mask(*ids: str) -> int:
    return sum(1 << INDEX_OF[i] for i in ids)


def run(profile: str = "dummett", opts: dict[str, str] | None = None, **kw) -> ScoreResult:
    return score(load_rules(profile, opts), ScoreInput(**kw))


def check(res: ScoreResult, written: tuple[int, int, int], nets: tuple[int, int, int]) -> None:
    assert res.written == written
    assert res.nets == nets
    assert sum(res.nets) == 0


def line(res: ScoreResult, item: str):
    found = [ln for ln in res.lines if ln.item == item]
    assert len(found) == 1, [ln.item for ln in res.lines]
    return found[0]


# ----------------------------------------------------------------- 10.1 card counting

BLANKS = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "T13", "T14",
          "T15", "T16", "T17", "T18", "T19", "T20", "H4", "H3", "H2", "HA", "D4", "D3", "D2", "DA",
          "S7", "S8", "S9", "S10", "C7", "C8", "C9", "C10"]


@pytest.mark.parametrize("cards, thirds, points", [
    (["HK", "HC", "T7"], 21, 7),
    (["HK", "HQ", "T22"], 36, 12),
    (["T21", "T1", "SK"], 39, 13),
    (["HQ", "DQ", "SQ"], 30, 10),
    (["HQ", "DQ", "SC"], 27, 9),
    (["HJ", "DJ", "SJ"], 12, 4),
    (["T2", "H4", "S7"], 3, 1),
    (["T1", "CK", "CC"], 33, 11),  # a printed 12⅓ is wrong
    (["T22", "T21", "T1", "HK", "DK", "HQ", "DQ", "SC", "HJ", "DJ", *BLANKS[:17]], 117, 39),
    (["HK"], 13, 4),
    (["HK", "T5"], 14, 5),
])
def test_10_1_counting(cards: list[str], thirds: int, points: int) -> None:
    assert len(set(cards)) == len(cards)
    assert thirds_of(mask(*cards)) == thirds
    assert round_points(thirds) == points


def test_10_1_pack_and_threshold() -> None:
    assert len(BLANKS) == 35
    assert thirds_of(FULL_MASK) == 210 and round_points(210) == 70
    assert round_points(107) == 36 and wins(107)  # possible only in a Two
    assert round_points(106) == 35 and not wins(106)  # possible only in a One


def test_thirds_from_points_follows_the_talon_share() -> None:
    assert [thirds_from_points(c, 40) for c in ("three", "lower", "two", "one", "solo")] == \
        [120, 120, 119, 121, 120]
    assert thirds_from_points("two", 36) == 107 and thirds_from_points("one", 35) == 106


# ----------------------------------------------------------------- 10.2 published examples


def test_tv1_loew_two_pagat_after_lost() -> None:
    # Game (3 + (37 − 35)) × 2 = 10 to D; Pagat after 10 × 2 = 20 to each defender.
    res = run("loew", contract="two", declarer_thirds=110, announcements={"pagat": "after"},
              birds={"pagat": BirdOutcome(F, 16, M)})
    check(res, (10, 20, 20), (-20, 10, 10))
    assert res.birds == "pagat@decl:lost"


LOEW_SOLO_HAND = KINGS_MASK | mask("T20", "T19", "T18")


def test_tv2_loew_solo_kramerpoi_made_with_kings() -> None:
    # (G 8 + E 16 + Kramerpoi 15 + four Kings 3) × 4 = 168 (the source prints 104).
    res = run("loew", contract="solo", declarer_thirds=153, announcements={"kramerpoi": "after"},
              declarer_hand=LOEW_SOLO_HAND)
    check(res, (168, 0, 0), (336, -168, -168))


def test_tv3_loew_solo_kramerpoi_failed() -> None:
    # Game made: (8 + 14 + Kings 3) × 4 = 100 to D; Kramerpoi fails: 15 × 4 = 60 each defender.
    res = run("loew", contract="solo", declarer_thirds=147, announcements={"kramerpoi": "after"},
              declarer_hand=LOEW_SOLO_HAND)
    check(res, (100, 60, 60), (80, -40, -40))


def test_tv2_tv3_loew_target_suppresses_overshoot_reproduces_print() -> None:
    opts = {"loew_target_suppresses_overshoot": "true"}
    # TV2 printed: (8 + 15 + 3) × 4 = 104.
    res = run("loew", opts, contract="solo", declarer_thirds=153,
              announcements={"kramerpoi": "after"}, declarer_hand=LOEW_SOLO_HAND)
    check(res, (104, 0, 0), (208, -104, -104))
    # TV3 printed: (8 + 3) × 4 = 44 to D, B = C = 60.
    res = run("loew", opts, contract="solo", declarer_thirds=147,
              announcements={"kramerpoi": "after"}, declarer_hand=LOEW_SOLO_HAND)
    check(res, (44, 60, 60), (-32, 16, 16))


def test_tv4_beck_en_two_pagat_won() -> None:
    # (3 + (39 − 35) + Pagat 10) × 2 = 34.
    res = run("beck", {"beck_variant": "en"}, contract="two", declarer_thirds=116,
              announcements={"pagat": "after"}, birds={"pagat": BirdOutcome(F, 16, F)})
    check(res, (34, 0, 0), (68, -34, -34))
    assert res.birds == "pagat@decl:won"


def test_tv5_beck_en_two_pagat_lost() -> None:
    # D (3 + 4) × 2 = 14; B = C = 10 × 2 = 20 (the source prints 10, ignoring m).
    res = run("beck", {"beck_variant": "en"}, contract="two", declarer_thirds=116,
              announcements={"pagat": "after"}, birds={"pagat": BirdOutcome(F, 16, R)})
    check(res, (14, 20, 20), (-12, 6, 6))


def test_tv6_ms2016_two_absolut_before_made() -> None:
    # (G 5 + E 6 + Absolut before 10) × 2 = 42.
    res = run("ms2016", contract="two", declarer_thirds=122, announcements={"absolut": "before"})
    check(res, (42, 0, 0), (84, -42, -42))


def test_tv7_ms2016_two_absolut_before_failed() -> None:
    # Game (5 + 4) × 2 = 18 to D; Absolut fails: 10 × 2 = 20 to each defender.
    res = run("ms2016", contract="two", declarer_thirds=116, announcements={"absolut": "before"})
    check(res, (18, 20, 20), (-4, 2, 2))


def test_tv8_beck_three_absolut_after() -> None:
    # 3 + (45 − 35) + 5 = 18.
    res = run("beck", contract="three", declarer_thirds=135, announcements={"absolut": "after"})
    check(res, (18, 0, 0), (36, -18, -18))


def test_tv9_beck_two_koepfe_before() -> None:
    # (3 + 4 + Köpfe before 2 × 2) × 2 = 22; judged on the dealt hand.
    dealt = mask("T22", "T1", "T10")
    res = run("beck", contract="two", declarer_thirds=116, announcements={"koepfe": "before"},
              dealt=(dealt, None, None), declarer_hand=dealt)
    check(res, (22, 0, 0), (44, -22, -22))


def test_tv9_family_not_judged_again_after_exchange() -> None:
    # The talon brings XXI: he now holds Trull, but the Trull/Köpfe family was judged
    # on announcement, so there is no silent Trull (still 22).
    res = run("beck", contract="two", declarer_thirds=116, announcements={"koepfe": "before"},
              dealt=(mask("T22", "T1"), None, None), declarer_hand=mask("T22", "T21", "T1"))
    check(res, (22, 0, 0), (44, -22, -22))


def test_tv10_beck_one_kramerpoi_and_defender_koepfe() -> None:
    # D (3 + 15 + Kramerpoi 10) × 3 = 84; B announced Köpfe: 2 × 3 = 6, written by B alone.
    res = run("beck", contract="one", declarer_thirds=151, announcements={"kramerpoi": "after"},
              defender_announcements={M: {"koepfe": "after"}},
              dealt=(None, mask("T21", "T1", "T5"), None))
    check(res, (84, 6, 0), (162, -72, -90))


def test_tv11_beck_held_three_lost_with_defender_koepfe() -> None:
    # Declarer R, defender A = F (Köpfe), C = M.  G 5 (held) + (35 − 33) = 7 to each
    # defender; A adds Köpfe 2: A 9, C 7 (the source uses G 4: 8 and 6).
    res = run("beck", contract="three", declarer=R, level="held", declarer_thirds=99,
              defender_announcements={F: {"koepfe": "after"}},
              dealt=(mask("T22", "T21"), None, None))
    check(res, (9, 7, 0), (11, 5, -16))
    assert res.net_declarer == -16 and res.game_value == 5


def test_tv12_beck_three_won() -> None:
    res = run("beck", contract="three", declarer_thirds=120)  # 3 + 5
    check(res, (8, 0, 0), (16, -8, -8))


def test_tv13_ms2016_two_pagat_won() -> None:
    # (5 + 5 + 10) × 2 = 40.
    res = run("ms2016", contract="two", declarer_thirds=119, announcements={"pagat": "after"},
              birds={"pagat": BirdOutcome(F, 16, F)})
    check(res, (40, 0, 0), (80, -40, -40))


def test_tv14_ms2016_two_lost_pagat_won() -> None:
    # Pagat 10 × 2 = 20 to D; game lost: (5 + (35 − 33)) × 2 = 14 to each defender.
    res = run("ms2016", contract="two", declarer_thirds=98, announcements={"pagat": "after"},
              birds={"pagat": BirdOutcome(F, 16, F)})
    check(res, (20, 14, 14), (12, -6, -6))


# ----------------------------------------------------------------- 10.3 dummett vectors


def test_d1_three_40() -> None:
    check(run(contract="three", declarer_thirds=120), (7, 0, 0), (14, -7, -7))


def test_d2_lower_30() -> None:
    # Each defender: 4 + (35 − 30) = 9.
    check(run(contract="lower", declarer_thirds=90), (0, 9, 9), (-18, 9, 9))


def test_d3_two_absolut_made() -> None:
    # (5 + (45 − 40)) × 2 = 20.
    res = run(contract="two", declarer_thirds=134, announcements={"absolut": "after"})
    check(res, (20, 0, 0), (40, -20, -20))
    assert res.game_value == 5 and res.made and res.margin_thirds == 134 - 119


def test_d4_two_absolut_failed() -> None:
    # (5 + (39 − 38)) × 2 = 12 to each defender.
    res = run(contract="two", declarer_thirds=113, announcements={"absolut": "after"})
    check(res, (0, 12, 12), (-24, 12, 12))
    assert not res.made


def test_d5_solo_pagat_after_won() -> None:
    # (3 + 2) × 8 + 10 × 8 = 120.
    res = run(contract="solo", declarer_thirds=114, announcements={"pagat": "after"},
              birds={"pagat": BirdOutcome(F, 16, F)})
    check(res, (120, 0, 0), (240, -120, -120))


def test_d6_one_kramerpoi_before_failed() -> None:
    # (40 + (49 − 48)) × 3 = 123 to each defender.
    res = run(contract="one", declarer_thirds=145, announcements={"kramerpoi": "before"})
    check(res, (0, 123, 123), (-246, 123, 123))


def test_d7_contra_recontra_after() -> None:
    # (3 + 2) × 4 = 20 to each defender.
    res = run(contract="three", declarer_thirds=99, contras={"game": "aa"})
    check(res, (0, 20, 20), (-40, 20, 20))


def test_d8_defender_trull() -> None:
    res = run(contract="three", declarer_thirds=108,
              dealt=(None, mask("T22", "T21", "T1", "T4"), None))
    check(res, (3, 3, 0), (3, 3, -6))


def test_d9_defender_pagat_captured_by_declarer() -> None:
    # (3 + 4) × 2 + silent Pagat of the defenders failed: 5 × 2 to D = 24.
    res = run(contract="two", declarer_thirds=119, birds={"pagat": BirdOutcome(M, 16, F)})
    check(res, (24, 0, 0), (48, -24, -24))
    assert res.birds == "pagat@def:lost"


def test_d10_two_with_exactly_35_two_thirds() -> None:
    res = run(contract="two", declarer_thirds=107)
    check(res, (6, 0, 0), (12, -6, -6))
    assert res.points == 36 and res.made and res.margin_thirds == 0
    # beck: (3 + 1) × 2 = 8; ms2016: (5 + 1) × 2 = 12.
    check(run("beck", contract="two", declarer_thirds=107), (8, 0, 0), (16, -8, -8))
    check(run("ms2016", contract="two", declarer_thirds=107), (12, 0, 0), (24, -12, -12))


def test_d11_one_with_exactly_35_one_third() -> None:
    res = run(contract="one", declarer_thirds=106)
    check(res, (0, 9, 9), (-18, 9, 9))
    assert res.points == 35 and not res.made


def test_d11_win_thirds_106_variant() -> None:
    # With win_thirds=106, 35⅓ wins; P 35 − T 36 is clamped to 0: 3 × 3 = 9 to D.
    res = run("dummett", {"win_thirds": "106"}, contract="one", declarer_thirds=106)
    check(res, (9, 0, 0), (18, -9, -9))


def test_d12_broken_no_kings_before_loses_the_game() -> None:
    # No play; each defender: G 3 + 0 under-points + No Kings 20 = 23.
    res = run(contract="three", announcements={"no_kings": "before"}, broken=("no_kings",))
    check(res, (0, 23, 23), (-46, 23, 23))
    assert not res.made and res.points == 35 and res.points_thirds is None


def test_d12_broken_derived_from_the_hand_with_announced_bird() -> None:
    # Derived from the hand after the exchange (he took a King); the announced Uhu fails
    # too: 40 (before the talon) more to each defender: 3 + 20 + 40 = 63.
    res = run(contract="three", announcements={"no_kings": "before", "uhu": "before"},
              dealt=(mask("T2", "T5"), None, None), declarer_hand=mask("T2", "T5", "HK"))
    check(res, (0, 63, 63), (-126, 63, 63))
    assert res.birds == "uhu@decl:lost"


def test_d13_uhu_forced_out() -> None:
    # Uhu fails: 20 to each defender; the game (P 40: 3 + 4 = 7 to D) is separate.
    res = run(contract="three", declarer_thirds=120, announcements={"uhu": "after"},
              birds={"uhu": BirdOutcome(F, 9, F)})
    uhu = line(res, "uhu")
    assert (uhu.writers, uhu.amount) == ((M, R), 20)
    check(res, (7, 20, 20), (-26, 13, 13))  # Uhu nets −40/+20/+20 plus the game +14/−7/−7


def test_d14_solo_silent_uhu_beaten() -> None:
    # Silent Uhu of D fails: 10 × 8 = 80 to each defender; plus the game (P 40: 7 × 8 = 56).
    res = run(contract="solo", declarer_thirds=120, birds={"uhu": BirdOutcome(F, 15, M)})
    uhu = line(res, "uhu")
    assert (uhu.writers, uhu.amount) == ((M, R), 80)
    check(res, (56, 80, 80), (-48, 24, 24))  # Uhu nets −160/+80/+80 plus +112/−56/−56


def test_d15_auction_contra() -> None:
    # (3 + 2) × 4 = 20.
    res = run(contract="three", declarer_thirds=114, contras={"game": "b"})
    check(res, (20, 0, 0), (40, -20, -20))


def test_d16_partner_capture() -> None:
    # B's I in trick 16 captured by C: void, no Pagat item; (3 + 4) × 2 = 14.
    birds = {"pagat": BirdOutcome(M, 16, R)}
    res = run(contract="two", declarer_thirds=119, birds=birds)
    check(res, (14, 0, 0), (28, -14, -14))
    assert res.birds == "pagat@def:void"
    # partner_capture=fail: D also writes 5 × 2 = 10.
    res = run("dummett", {"partner_capture": "fail"}, contract="two", declarer_thirds=119,
              birds=birds)
    check(res, (24, 0, 0), (48, -24, -24))
    assert res.birds == "pagat@def:lost"


def test_d17_declarer_hand_bonuses() -> None:
    # 3 × 2 + Köpfe 1 + four Kings 3 = 10, hand bonuses unmultiplied.
    res = run(contract="two", declarer_thirds=107,
              declarer_hand=mask("T22", "T21", "T9") | KINGS_MASK)
    check(res, (10, 0, 0), (20, -10, -10))


def test_d18_lower_absolut() -> None:
    res = run(contract="lower", declarer_thirds=126, announcements={"absolut": "after"})
    check(res, (7, 0, 0), (14, -7, -7))  # 5 + 2
    res = run("dummett", {"lower_bonus_with_target": "keep_plus1"}, contract="lower",
              declarer_thirds=126, announcements={"absolut": "after"})
    check(res, (8, 0, 0), (16, -8, -8))  # (5 + 1) + 2


def test_d19_kakadu_before_won() -> None:
    # 3 + 1 + 60 = 64.
    res = run(contract="three", declarer_thirds=111, announcements={"kakadu": "before"},
              birds={"kakadu": BirdOutcome(F, 14, F)})
    check(res, (64, 0, 0), (128, -64, -64))


def test_d20_pagat_contra_fails() -> None:
    res = run(contract="three", declarer_thirds=120, announcements={"pagat": "after"},
              contras={"pagat": "a"}, birds={"pagat": BirdOutcome(F, 16, M)})
    check(res, (7, 20, 20), (-26, 13, 13))


def test_d21_no_trull_after() -> None:
    # 3 + 5 + 10 = 18.
    res = run(contract="three", declarer_thirds=123, announcements={"no_trull": "after"},
              declarer_hand=mask("T20", "T19") | KINGS_MASK)
    check(res, (18 + 3, 0, 0), (42, -21, -21))  # plus his four Kings (3)
    res = run(contract="three", declarer_thirds=123, announcements={"no_trull": "after"})
    check(res, (18, 0, 0), (36, -18, -18))


def test_d22_solo_lost() -> None:
    # (3 + 5) × 8 = 64 to each defender.
    check(run(contract="solo", declarer_thirds=90), (0, 64, 64), (-128, 64, 64))


# ----------------------------------------------------------------- further rule cases


def test_individual_defender_bird_loew() -> None:
    # Löw: a defender's own Pagat is written by him alone (10 × m 2 = 20); the game
    # (3 + 1) × 2 = 8 goes to D.  Nets: D 24 − 28, M 60 − 28, R 0 − 28.
    base = dict(contract="two", declarer_thirds=107, defender_announcements={M: {"pagat": "after"}})
    res = run("loew", birds={"pagat": BirdOutcome(M, 16, M)}, **base)
    check(res, (8, 20, 0), (-4, 32, -28))
    # Failed: the declarer writes it.
    res = run("loew", birds={"pagat": BirdOutcome(M, 16, F)}, **base)
    check(res, (28, 0, 0), (56, -28, -28))


def test_contra_scope_separate_and_with_declarations() -> None:
    # dummett: the game contra covers No Trull: (3 + 5 + 10) × 2 = 36.
    res = run(contract="three", declarer_thirds=123, announcements={"no_trull": "after"},
              contras={"game": "a"})
    check(res, (36, 0, 0), (72, -36, -36))
    with pytest.raises(RulesError, match="covered by the game contra"):
        run(contract="three", declarer_thirds=123, announcements={"no_trull": "after"},
            contras={"no_trull": "a"})
    # beck (separate): game (3 + 6) × 2 = 18, No Trull contra'd on its own 4 × 4 = 16.
    res = run("beck", contract="three", declarer_thirds=123, announcements={"no_trull": "after"},
              contras={"game": "a", "no_trull": "aa"})
    check(res, (34, 0, 0), (68, -34, -34))


def test_ms2016_graded_targets_are_cumulative() -> None:
    # Kramerpoi before also announces Absolut before: G 5 + E 16 + 10 + 40 = 71, × 2.
    res = run("ms2016", contract="two", declarer_thirds=152, announcements={"kramerpoi": "before"})
    check(res, (142, 0, 0), (284, -142, -142))
    assert option_of(ScoreInput("two", announcements={"kramerpoi": "before"})) == \
        "kramerpoi@before"
    # beck is not cumulative: Kramerpoi replaces an Absolut (3 + 16 + 10) × 2 = 58.
    res = run("beck", contract="two", declarer_thirds=152,
              announcements={"absolut": "after", "kramerpoi": "after"})
    check(res, (58, 0, 0), (116, -58, -58))


def test_lose_bonus_break_continues_play() -> None:
    # beck: a broken before-talon No Kings fails alone (10 × 1 to each defender);
    # the game is played and won: 3 + 5 = 8.
    res = run("beck", contract="three", declarer_thirds=120, announcements={"no_kings": "before"},
              broken=("no_kings",))
    check(res, (8, 10, 10), (-4, 2, 2))


def test_valat_fixed_and_multiplier() -> None:
    # ms2016 silent Valat: G 3 + E (70 − 35) = 38, Valat 20: 58.
    res = run("ms2016", contract="three", declarer_thirds=210, valat=True)
    check(res, (58, 0, 0), (116, -58, -58))
    # multiplier: the declarer's score 38 × 12 = 456.
    res = run("beck", {"valat": "multiplier:12/24/48"}, contract="three", declarer_thirds=210,
              valat=True)
    check(res, (456, 0, 0), (912, -456, -456))
    # Announced Valat that fails in beck (P 67: game 3 + 32 to D): 24 × 1 to each defender.
    res = run("beck", contract="three", declarer_thirds=201, announcements={"valat": "after"})
    check(res, (3 + 32, 24, 24), (22, -11, -11))


def test_hand_bonuses_multiplied_and_as_dealt() -> None:
    # ms2016 Two: defender R's dealt Trull 3 × 2 = 6 to R alone.
    res = run("ms2016", contract="two", declarer_thirds=107,
              dealt=(None, None, mask("T22", "T21", "T1")))
    check(res, (12, 0, 6), (18, -18, 0))
    # as_dealt: the declarer's Kings from the talon do not count.
    res = run("dummett", {"hand_bonus_time": "as_dealt"}, contract="three", declarer_thirds=108,
              dealt=(mask("HK", "DK", "SK"), None, None), declarer_hand=KINGS_MASK)
    check(res, (3, 0, 0), (6, -3, -3))


def test_game_state_helpers() -> None:
    # Tricks 14-16 of a Solo by F.  14: F ♥K, M ♥4, R V (R wins).  15: R VI, F III, M X
    # (M wins).  16: M II, R ♦4, F I (M wins).
    state = GameState(hands=[mask("T1", "T3", "HK"), mask("T2", "T10", "H4"),
                             mask("T5", "T6", "D4")], leader=F, declarer=F, first_trick=14)
    for card in ("HK", "H4", "T5", "T6", "T3", "T10", "T2", "D4", "T1"):
        state.play(INDEX_OF[card])
    assert bird_outcomes_from_state(state) == {
        "pagat": BirdOutcome(F, 16, M), "uhu": BirdOutcome(M, 16, M),
        "kakadu": BirdOutcome(F, 15, M)}
    inp = ScoreInput.from_game("solo", F, state)
    assert inp.declarer_thirds == 0 and not inp.valat
    res = score(load_rules(), inp)
    # Game lost with P 0: (3 + 35) × 8 = 304; D's silent Pagat lost in trick 16: 5 × 8 = 40.
    # II and III were not played to their own tricks: no item.
    check(res, (0, 344, 344), (-688, 344, 344))
    assert res.birds == "pagat@decl:lost"


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize("kw, fragment", [
    (dict(contract="two", declarer_thirds=108), "impossible in a two"),
    (dict(contract="three", declarer_thirds=211), "impossible"),
    (dict(contract="three"), "points are missing"),
    (dict(contract="lower", declarer_thirds=120, level="held"), "level"),
    (dict(contract="solo", declarer_thirds=120, announcements={"pagat": "before"}), "Solo"),
    (dict(contract="three", declarer_thirds=120, announcements={"valat": "after"}),
     "cannot be announced"),
    (dict(contract="three", declarer_thirds=120, announcements={"pagat": "after"}),
     "give its outcome"),
    (dict(contract="three", declarer_thirds=120, announcements={"pagat": "after"},
          birds={"pagat": BirdOutcome(M, 16, M)}), "only the holder"),
    (dict(contract="three", declarer_thirds=120, contras={"uhu": "a"}), "not announced"),
    (dict(contract="three", declarer_thirds=120, contras={"game": "aaaa"}), "contra_max_level"),
    (dict(contract="three", declarer_thirds=120, contras={"game": "ab"}), "before-talon step"),
    (dict(contract="solo", declarer_thirds=120, contras={"game": "b"}), "Solo"),
    (dict(contract="three", declarer_thirds=120, announcements={"pagat": "after"},
          contras={"pagat": "b"}, birds={"pagat": BirdOutcome(F, 16, F)}), "after the talon"),
    (dict(contract="three", declarer_thirds=120, defender_announcements={M: {"pagat": "after"}}),
     "cannot announce"),
    (dict(contract="three", declarer_thirds=120, announcements={"no_trull": "after"},
          declarer_hand=mask("T1")), "holds such a card"),
    (dict(contract="three", announcements={"no_kings": "before", "pagat": "after"},
          broken=("no_kings",)), "ended at the talon"),
    (dict(contract="three", declarer_thirds=120, broken=("no_kings",)), "broken"),
    (dict(contract="three", declarer_thirds=120, valat=True,
          birds={"pagat": BirdOutcome(M, 16, M)}), "Valat"),
    (dict(contract="three", declarer_thirds=120, declarer=3), "unknown seat"),
])
def test_bad_input_raises_rules_error(kw: dict, fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment):
        run(**kw)


def test_binding_contra_only() -> None:
    with pytest.raises(RulesError, match="contra_binds_partner"):
        run("dummett", {"contra_binds_partner": "false"}, contract="three", declarer_thirds=120,
            contras={"game": "a"})


def test_input_from_dict() -> None:
    rules = load_rules("beck")
    inp = input_from_dict(rules, {
        "contract": "Einblatt", "declarer": "F", "points": 50,
        "announce": ["kramerpoi", "koepfe/M"], "hand_bonus": {"M": "koepfe"},
        "contra": {"game": "a"}, "birds": {"pagat": "holder=F,trick=16,winner=F"},
    })
    assert inp.contract == "one" and inp.declarer_thirds == 151
    assert inp.announcements == {"kramerpoi": "after"}
    assert inp.defender_announcements == {M: {"koepfe": "after"}}
    assert inp.birds == {"pagat": BirdOutcome(F, 16, F)}
    # (3 + 15) × 3 × 2 = 108 + Kramerpoi 30 + silent Pagat 15 = 153; M's Köpfe 6.
    check(score(rules, inp), (153, 6, 0), (300, -141, -159))
    with pytest.raises(RulesError, match="unknown field"):
        input_from_dict(rules, {"contract": "three", "colour": 1})
    with pytest.raises(RulesError, match="either points or thirds"):
        input_from_dict(rules, {"contract": "three", "points": 3, "thirds": 9})


# ----------------------------------------------------------------- 10.4 S1-S3 Trischaken


def test_s1_one_loser() -> None:
    res = score_trischaken(load_rules(), (20, 25, 15), (5, 6, 5))
    assert res.written == (5, 0, 5) and res.nets == (5, -10, 5) and res.losers == (M,)


def test_s2_trickless_non_loser() -> None:
    res = score_trischaken(load_rules(), (0, 30, 10), (0, 9, 7))
    assert res.written == (10, 0, 5) and res.nets == (15, -15, 0)


def test_s3_two_tied_losers() -> None:
    res = score_trischaken(load_rules(), (20, 20, 8), (6, 6, 4))
    assert res.written == (0, 0, 5) and res.nets == (-5, -5, 10) and res.losers == (F, M)
    # ... +20 / −10 / −10 if the third player took no trick.
    res = score_trischaken(load_rules(), (20, 20, 0), (8, 8, 0))
    assert res.nets == (-10, -10, 20)


def test_trischaken_three_way_tie_and_errors() -> None:
    res = score_trischaken(load_rules(), (15, 15, 15), (5, 5, 6))
    assert res.written == (0, 0, 0) and res.nets == (0, 0, 0)
    with pytest.raises(RulesError, match="no Trischaken"):
        score_trischaken(load_rules("ms2016"), (20, 25, 15), (5, 6, 5))
    with pytest.raises(RulesError, match="add up to 16"):
        score_trischaken(load_rules(), (20, 25, 15), (5, 6, 4))
    with pytest.raises(RulesError, match="at least 1 point"):
        score_trischaken(load_rules(), (0, 25, 15), (1, 10, 5))


# ----------------------------------------------------------------- properties

PROFILES = ("dummett", "beck", "ms2016", "loew")
RESIDUE = {"three": 0, "lower": 0, "two": 2, "one": 1, "solo": 0}


@st.composite
def deals(draw):
    name = draw(st.sampled_from(PROFILES))
    rules = load_rules(name)
    contract = draw(st.sampled_from(rules.contracts))
    decl = draw(st.integers(0, 2))
    points = draw(st.integers(0, 70))
    thirds = min(3 * points + {0: 0, 2: -1, 1: 1}[RESIDUE[contract]], 210)
    if thirds % 3 != RESIDUE[contract] or thirds < 0:
        thirds = RESIDUE[contract]
    anns = {}
    for item in ("absolut", "kramerpoi", "no_trull", "no_kings", "pagat", "uhu", "kakadu"):
        levels = [lv for lv in rules.announcement_levels(item)
                  if not (contract == "solo" and lv == "before")]
        if levels and draw(st.booleans()):
            anns[item] = draw(st.sampled_from(levels))
    birds = {}
    for bird, trick in (("pagat", 16), ("uhu", 15), ("kakadu", 14)):
        holder = decl if bird in anns else draw(st.integers(0, 2))
        if bird in anns or draw(st.booleans()):
            birds[bird] = BirdOutcome(holder, draw(st.sampled_from((trick, trick - 3))),
                                      draw(st.integers(0, 2)))
    contras = {"game": draw(st.sampled_from(("", "a", "aa")))}
    contras = {k: v for k, v in contras.items() if v}
    # Defenders' dealt hands only: the declarer's would have to agree with his "no ..."s.
    dealt = tuple(None if seat == decl else
                  draw(st.sampled_from((None, 0, KINGS_MASK, mask("T22", "T21")))) for seat in range(3))
    return rules, ScoreInput(contract, decl, thirds, announcements=anns, birds=birds,
                             contras=contras, dealt=dealt)


@settings(max_examples=300, deadline=None)
@given(deals())
def test_nets_sum_to_zero_and_written_are_positive(deal) -> None:
    rules, inp = deal
    res = score(rules, inp)
    assert sum(res.nets) == 0
    assert all(w >= 0 for w in res.written)
    assert res.net_declarer == res.nets[inp.declarer]
    assert res.nets == tuple(3 * w - sum(res.written) for w in res.written)
    assert sum(ln.amount * len(ln.writers) for ln in res.lines) == sum(res.written)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PROFILES), st.integers(0, 69), st.integers(0, 2))
def test_more_points_never_lower_the_declarers_net(name, points, decl) -> None:
    rules = load_rules(name)
    for contract in rules.contracts:
        lo, hi = (thirds_from_points(contract, p) for p in (points, points + 1))
        if lo < 0 or hi > 210:
            continue
        a = score(rules, ScoreInput(contract, decl, lo)).net_declarer
        b = score(rules, ScoreInput(contract, decl, hi)).net_declarer
        assert b >= a
