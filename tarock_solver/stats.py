"""Summaries of batch output for analysts (``tarock stats``).

:func:`summarise` groups a results, advice or review file (NOTATION.md 5.3 and 8.4) and
computes each group's metrics; :func:`with_tarocks` joins the tarocks the declarer was
dealt from the deal file; :func:`plot_summary` draws a summary.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from .analysis.results import BASE_COLUMNS, read_results, results_format
from .cards import SEAT_NAMES, TAROCK_MASK
from .deal import DealWarning
from .deal_files import read_deals
from .errors import FileFormatError, TarockError
from .rules.names import CONTRACT_KEYS

__all__ = [
    "CONTRACT_ORDER", "QUANTILES", "default_keys", "load_results", "open_rows", "plot_summary",
    "review_summary", "summarise", "tarocks_held", "with_tarocks",
]

#: Quantiles of the card points reported per group.
QUANTILES: tuple[float, ...] = (0.1, 0.25, 0.5, 0.75, 0.9)
#: Display order of contracts (bid order); seats follow SEAT_NAMES; other values sorted.
CONTRACT_ORDER: tuple[str, ...] = (*CONTRACT_KEYS, "pass")
#: Columns that identify a scenario: when one of them varies in a file, mixing its
#: values in one group would average different questions, so the default grouping
#: splits on it.
_SCENARIO_COLUMNS: tuple[str, ...] = ("rules", "rule_options", "option")
_ADVICE_COLUMNS: tuple[str, ...] = ("seat", "contract", "win_prob", "mean_net")
_REVIEW_COLUMNS: tuple[str, ...] = ("deal_id", "seat", "role", "card", "loss", "trick")
#: French Tarot tables (``tarock --game french batch``): one row per taker and contract.
_FRENCH_COLUMNS: tuple[str, ...] = ("deal_id", "game", "taker", "contract", "points", "margin",
                                    "score", "made", "status")
#: French Tarot advice (``tarock --game french batch --mode advise``): one row per hand.
_FRENCH_ADVICE_COLUMNS: tuple[str, ...] = ("deal_id", "game", "seat", "recommended",
                                           "runner_up", "difference", "close_call",
                                           "pass_score")
#: French Tarot contracts in bid order.
FRENCH_CONTRACT_ORDER: tuple[str, ...] = ("petite", "garde", "garde_sans", "garde_contre")
_PLOT_HINT = 'plotting needs matplotlib: pip install "tarock-solver[plot]"'


class StatsError(TarockError):
    """A summary that cannot be made: unknown grouping column, wrong kind of file."""


def _is_review(frame: pd.DataFrame) -> bool:
    return all(c in frame.columns for c in _REVIEW_COLUMNS)


def _is_french(frame: pd.DataFrame) -> bool:
    return all(c in frame.columns for c in _FRENCH_COLUMNS)


def _is_french_advice(frame: pd.DataFrame) -> bool:
    return all(c in frame.columns for c in _FRENCH_ADVICE_COLUMNS)


def _is_advice(frame: pd.DataFrame) -> bool:
    return all(c in frame.columns for c in _ADVICE_COLUMNS) and "declarer" not in frame.columns


def load_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a results file (or an advice table) written by ``tarock batch``.

    Results files come back typed by :func:`tarock_solver.analysis.read_results`;
    an advice table (it has ``seat`` and ``win_prob`` instead of ``declarer``) is read
    as it is.  :class:`FileFormatError` for anything else.
    """
    fmt = results_format(path)
    name = str(path)
    try:
        if fmt == "parquet":
            raw = pd.read_parquet(path)
        elif fmt == "jsonl":
            raw = pd.read_json(path, lines=True, dtype=False)
        else:
            raw = pd.read_csv(path, dtype=str, keep_default_na=False, nrows=0)
    except ImportError:
        raise FileFormatError(f"{name}: reading Parquet needs pyarrow: pip install "
                              f'"tarock-solver[parquet]".', path=name) from None
    except (OSError, ValueError) as exc:
        raise FileFormatError(f"{name}: cannot read the file ({exc}).", path=name) from None
    if all(c in raw.columns for c in BASE_COLUMNS):
        return read_results(path)
    if _is_advice(raw) or _is_review(raw) or _is_french(raw) or _is_french_advice(raw):
        if fmt == "csv":
            raw = pd.read_csv(path)
        return raw
    raise FileFormatError(
        f"{name}: not a results file: it needs the columns of NOTATION.md 5.3 (schema, "
        f"deal_id, declarer, contract, points, made, net_declarer, …) or of the advice "
        f"output; found {', '.join(map(str, raw.columns[:8]))}"
        f"{' …' if len(raw.columns) > 8 else ''}.", path=name)


def tarocks_held(deals_path: str | os.PathLike[str]) -> pd.DataFrame:
    """Tarocks dealt to each known hand of a deal file: columns ``deal_id``,
    ``declarer`` (F/M/R) and ``tarocks``.  Bad records are skipped (``tarock batch``
    has already reported them)."""
    with warnings.catch_warnings():
        # The warnings about the file (tarock-less hands …) were given by `tarock batch`.
        warnings.simplefilter("ignore", DealWarning)
        records, _ = read_deals(deals_path, strict=False)
    rows = [(r.id, seat, int(hand & TAROCK_MASK).bit_count())
            for r in records for seat, hand in zip(SEAT_NAMES, r.deal.hands, strict=True)
            if hand is not None]
    return pd.DataFrame({"deal_id": pd.array([r[0] for r in rows], dtype="string"),
                         "declarer": pd.array([r[1] for r in rows], dtype="string"),
                         "tarocks": pd.array([r[2] for r in rows], dtype="Int8")})


def with_tarocks(frame: pd.DataFrame, deals_path: str | os.PathLike[str]) -> pd.DataFrame:
    """``frame`` with the column ``tarocks`` from the deal file (null where unknown)."""
    if _is_french(frame) or _is_french_advice(frame):
        raise StatsError("--deals joins the tarocks of Illustrated Tarock hands; a French "
                         "Tarot file has no such column (group with --by instead).")
    seat = "declarer" if "declarer" in frame.columns else "seat"
    held = tarocks_held(deals_path).rename(columns={"declarer": seat})
    keys = frame[["deal_id", seat]].astype("string")
    merged = keys.merge(held, on=["deal_id", seat], how="left", validate="many_to_one")
    out = frame.copy()
    out["tarocks"] = pd.array(merged["tarocks"], dtype="Int8")
    if out["tarocks"].isna().all() and len(out):
        raise StatsError(f"no deal id of the results is in {deals_path}; give the deal file "
                         f"the results were computed from.")
    return out


def default_keys(frame: pd.DataFrame) -> list[str]:
    """Contract and seat, plus every scenario column that takes more than one value."""
    if _is_review(frame):
        return ["role", "seat"]
    if _is_french(frame):
        return ["contract", "taker"]
    if _is_french_advice(frame):
        return ["recommended"]
    seat = "seat" if _is_advice(frame) else "declarer"
    extra = [c for c in _SCENARIO_COLUMNS if c in frame.columns and frame[c].nunique() > 1]
    return [*extra, "contract", seat]


def _order(values: pd.Series, column: str) -> pd.Series:
    """A sort key that puts contracts in bid order and seats in playing order."""
    bids = (*FRENCH_CONTRACT_ORDER, "pass")
    order = {"contract": (*CONTRACT_ORDER, *FRENCH_CONTRACT_ORDER), "declarer": SEAT_NAMES,
             "seat": SEAT_NAMES, "recommended": bids, "runner_up": bids}.get(column)
    if order is None:
        return values
    rank = {v: i for i, v in enumerate(order)}
    return values.map(lambda v: (rank.get(v, len(order)), str(v)))


def _made_and_points(group: pd.DataFrame) -> dict[str, float]:
    """Rows, how often made, and the mean and quantiles of the card points: the metrics
    both games' tables share."""
    points = group["points"].astype("float64")
    out = {"rows": len(group),
           "made_pct": 100.0 * group["made"].astype("float64").mean(),
           "points_mean": points.mean()}
    for q in QUANTILES:
        out[f"points_p{round(q * 100)}"] = points.quantile(q)
    return out


def _metrics_results(group: pd.DataFrame) -> dict[str, float]:
    out = _made_and_points(group)
    out["net_mean"] = group["net_declarer"].astype("float64").mean()
    out["valat_pct"] = 100.0 * group["valat"].astype("float64").mean()
    return out


def _metrics_french(group: pd.DataFrame) -> dict[str, float]:
    out = _made_and_points(group)
    out["margin_mean"] = group["margin"].astype("float64").mean()
    out["score_mean"] = group["score"].astype("float64").mean()
    return out


def _chosen(group: pd.DataFrame, measure: str) -> pd.Series:
    """Per row of French advice, ``measure`` of the option it recommends (NaN where the
    option has none: passing has a score only)."""
    out = pd.Series(float("nan"), index=group.index, dtype="float64")
    for option, rows in group.groupby(group["recommended"].astype("string"), sort=False):
        column = f"{option}_{measure}"
        if column in group.columns:
            out[rows.index] = rows[column].astype("float64")
    return out


def _metrics_french_advice(group: pd.DataFrame) -> dict[str, float]:
    p_make = _chosen(group, "p_make")
    return {"rows": len(group),
            "close_pct": 100.0 * group["close_call"].astype("float64").mean(),
            "score_mean": _chosen(group, "score").mean(),
            "difference_mean": group["difference"].astype("float64").mean(),
            "make_pct": 100.0 * p_make.mean() if p_make.notna().any() else float("nan"),
            "points_mean": _chosen(group, "points").mean(),
            "pass_score_mean": group["pass_score"].astype("float64").mean()}


def _metrics_advice(group: pd.DataFrame) -> dict[str, float]:
    return {"rows": len(group),
            "win_pct": 100.0 * group["win_prob"].astype("float64").mean(),
            "net_mean": group["mean_net"].astype("float64").mean(),
            "points_mean": group["mean_points"].astype("float64").mean()
            if "mean_points" in group.columns else float("nan")}


def _metrics_review(group: pd.DataFrame) -> dict[str, float]:
    cards = group[group["card"].astype("string") != "exchange"]
    exchange = group[group["card"].astype("string") == "exchange"]
    loss = cards["loss"].astype("float64")
    deals = group["deal_id"].nunique()
    out = {"deals": deals, "cards": len(cards), "mistakes": int((loss > 0).sum()),
           "mistake_pct": 100.0 * float((loss > 0).mean()) if len(cards) else float("nan"),
           "loss_sum": float(loss.sum()),
           "loss_per_deal_mean": float(loss.sum()) / deals if deals else float("nan")}
    if "gp_loss" in group.columns:
        out["gp_loss_per_deal_mean"] = (float(cards["gp_loss"].astype("float64").sum()) / deals
                                        if deals and cards["gp_loss"].notna().any()
                                        else float("nan"))
    ex = exchange["exchange_loss_thirds"].astype("float64") if len(exchange) else pd.Series(
        dtype="float64")
    out["exchange_loss_mean"] = float(ex.mean()) / 3 if len(ex) else float("nan")
    return out


def review_summary(frame: pd.DataFrame, by: Sequence[str] | None = None) -> pd.DataFrame:
    """Loss summaries of review rows per ``by`` (default role and seat)."""
    return summarise(frame, by or ["role", "seat"])


def summarise(frame: pd.DataFrame, by: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per group of ``frame`` with the metrics of its kind of file.

    ``by`` lists the grouping columns (default :func:`default_keys`); rows with a null
    in a grouping column form no group.  Groups are ordered by bid order of contracts,
    playing order of seats and value otherwise.

    Results rows (NOTATION.md 5.3, one row per deal × declarer × contract × option):

    ``rows``
        number of rows (deal × declarer × option) in the group;
    ``made_pct``
        how often the game item succeeded, in percent;
    ``points_mean``, ``points_p10`` … ``points_p90``
        mean and quantiles of the declarer's rounded card points P;
    ``net_mean``
        mean of the declarer's zero-sum net game points (``net_declarer``);
    ``valat_pct``
        how often the declarer took every trick.

    Rows whose node budget ran out (``status`` ``over_budget``) hold bounds, not
    values; they are left out of every group (:func:`open_rows` counts them).  The
    column ``tarocks`` (the tarocks the declarer was dealt) is not a results column:
    :func:`with_tarocks` joins it from the deal file on ``deal_id`` and ``declarer``.
    French Tarot tables (``tarock --game french batch``) get rows, made_pct, the card
    points' mean and quantiles, and the mean margin and score per defender, per contract
    and taker.  French Tarot advice (``tarock --game french batch --mode advise``, one row
    per hand; grouped per ``recommended``) gets rows, close calls in percent, and the
    means of the recommended option's score, of its paired difference over the
    runner-up, of its P(make) in percent and card points (none when passing), and of
    passing's score.  Advice rows (NOTATION 5.3, "Advice output") get the mean win probability, net and
    card points per group instead; review rows (``tarock batch --mode review``, one row
    per card played; grouped per ``role`` and ``seat`` by :func:`review_summary`) get
    deals, cards, mistakes (loss > 0), the total loss and the loss per deal in card
    points (and game points), and the mean loss of the declarer's exchange in card
    points.
    """
    keys = list(by) if by else default_keys(frame)
    unknown = [k for k in keys if k not in frame.columns]
    if unknown:
        hint = "" if "tarocks" not in unknown else " (tarocks needs --deals IN)"
        raise StatsError(f'unknown column "{unknown[0]}" to group by{hint}; the file has: '
                         f"{', '.join(map(str, frame.columns))}.")
    if _is_review(frame):
        metrics: Callable[[pd.DataFrame], dict[str, float]] = _metrics_review
        # the exchange rows judge the declarer's exchange; the card rows his play
        frame = frame[open_rows(frame) == 0] if "status" in frame.columns else frame
    elif _is_french(frame):
        metrics = _metrics_french
    elif _is_french_advice(frame):
        metrics = _metrics_french_advice
    else:
        metrics = _metrics_advice if _is_advice(frame) else _metrics_results
    if metrics in (_metrics_results, _metrics_french):
        # Rows over their node budget have bounds, not values: averaging them in (or
        # only the ones whose "made" the bounds settled) would bias every column.
        frame = frame[open_rows(frame) == 0] if "status" in frame.columns else frame
    rows = []
    for values, group in frame.groupby(keys, dropna=True, sort=False, observed=True):
        values = values if isinstance(values, tuple) else (values,)
        rows.append({**dict(zip(keys, values, strict=True)), **metrics(group)})
    # Column names come from the metrics themselves, so an empty summary has them too.
    table = pd.DataFrame(rows, columns=[*keys, *metrics(frame.iloc[:0]).keys()])
    if len(table):
        table = table.sort_values(keys, key=lambda s: _order(s, str(s.name)), kind="stable")
    return table.reset_index(drop=True)


def open_rows(frame: pd.DataFrame) -> pd.Series:
    """1 for each results row that is not exact (``status`` other than ``exact``), else 0."""
    if "status" not in frame.columns:
        return pd.Series(0, index=frame.index)
    return (frame["status"].astype("string").fillna("exact") != "exact").astype(int)


def plot_summary(table: pd.DataFrame, keys: Sequence[str], path: str | os.PathLike[str], *,
                 title: str = "") -> None:
    """Bar charts of a summary: success rate and mean net game points per group."""
    rate = "made_pct" if "made_pct" in table.columns else "win_pct"
    if rate not in table.columns or "net_mean" not in table.columns:
        # French Tarot summaries have no net game points (and advice no success rate)
        raise StatsError("--plot draws the success rate and the mean net game points of "
                         "Illustrated Tarock results and advice; this summary has no "
                         "such columns (write it with --csv instead).")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise StatsError(f"--plot: {_PLOT_HINT}.") from None
    labels = [" ".join(str(row[k]) for k in keys) for _, row in table.iterrows()]
    height = max(2.5, 0.32 * len(labels) + 1.2)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, height), sharey=True)
    positions = range(len(labels))
    left.barh(positions, table[rate].astype(float), color="tab:blue")
    left.set_xlabel("made %" if rate == "made_pct" else "win %")
    left.set_xlim(0, 100)
    left.set_yticks(list(positions), labels)
    left.invert_yaxis()
    right.barh(positions, table["net_mean"].astype(float), color="tab:green")
    right.axvline(0, color="black", linewidth=0.8)
    right.set_xlabel("mean net game points (declarer)")
    fig.suptitle(title or f"by {', '.join(keys)}")
    fig.tight_layout()
    try:
        fig.savefig(Path(path))
    except OSError as exc:
        raise StatsError(f"{path}: cannot write the plot ({exc.strerror or exc}).") from None
    finally:
        plt.close(fig)
