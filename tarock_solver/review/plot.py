"""The picture of a review: the declarer's double-dummy card points card by card, with the
mistakes marked (matplotlib, imported only here)."""

from __future__ import annotations

import os

from ..cards import SEAT_NAMES, card_label
from ..play import N_TRICKS
from .engine import Review

__all__ = ["plot_review"]


def plot_review(rv: Review, path: str | os.PathLike[str], *, ascii_only: bool = False) -> None:
    """Write the PNG (or any type matplotlib knows from ``path``) of ``rv``.

    The line is the declarer's total under best play from the start and after every
    card; a card that lost points is a marker at the value it left (red: the
    declarer's mistake, blue: a defender's), labelled with the card and the loss.  The
    dashed line is the points the game needs.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [0]
    ys = [None if rv.start_thirds is None else rv.start_thirds / 3]
    for i, c in enumerate(rv.cards, start=1):
        xs.append(i)
        ys.append(None if c.after_thirds is None else c.after_thirds / 3)
    fig, ax = plt.subplots(figsize=(11, 4.8), dpi=110)
    pts = [(x, y) for x, y in zip(xs, ys, strict=True) if y is not None]
    ax.step([p[0] for p in pts], [p[1] for p in pts], where="post", color="#333333",
            linewidth=1.6, label="declarer's DD card points")
    ax.axhline(rv.win_thirds / 3, color="#888888", linestyle="--", linewidth=1,
               label=f"needed ({rv.win_thirds / 3:.2f})")
    for t in range(1, N_TRICKS):
        ax.axvline(3 * t + 0.5, color="#eeeeee", linewidth=0.8, zorder=0)
    for side, colour in (("declarer", "#c62828"), ("defenders", "#1565c0")):
        marks = [(i, c) for i, c in enumerate(rv.cards, start=1)
                 if c.loss and (c.by_declarer == (side == "declarer"))]
        if not marks:
            continue
        ax.scatter([i for i, _ in marks], [c.after_thirds / 3 for _, c in marks],  # type: ignore[operator]
                   s=[40 + 12 * (c.loss or 0) for _, c in marks], color=colour, zorder=3,
                   label=f"mistake by the {side}")
        for i, c in marks:
            ax.annotate(f"{SEAT_NAMES[c.seat]} {card_label(c.card, ascii=ascii_only)} "
                        f"−{c.loss}", (i, c.after_thirds / 3),  # type: ignore[operator]
                        textcoords="offset points", xytext=(4, 8 if c.by_declarer else -14),
                        fontsize=8, color=colour)
    ax.set_xlim(-0.5, max(3 * N_TRICKS, len(rv.cards)) + 0.5)
    ax.set_xticks([3 * t - 1 for t in range(1, N_TRICKS + 1)],
                  [str(t) for t in range(1, N_TRICKS + 1)])
    ax.set_xlabel("trick")
    ax.set_ylabel("declarer's card points (best play from here)")
    rec = rv.record
    ax.set_title(f"Review {rec.id or ''}: {SEAT_NAMES[rec.declarer]} plays {rec.contract}",
                 fontsize=11)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
