"""Distribution of the declarer's card points per contract (``tarock advise --plot``).

matplotlib is an optional extra (``pip install 'tarock-solver[plot]'``); it is
imported only here, when a plot is asked for.
"""

from __future__ import annotations

import numpy as np

#: Thresholds drawn on the plot: game (36), Absolut (40), Kramerpoi (50).
THRESHOLDS = (36, 40, 50)


def plot_points(points: dict[str, np.ndarray], path: str, *, title: str = "") -> None:
    """Histogram of rounded card points per contract, with lines at 36 / 40 / 50."""
    import matplotlib

    matplotlib.use("Agg")  # files only; never needs a display
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    bins = np.arange(0, 72, 2)
    for contract, values in points.items():
        if len(values):
            ax.hist(values, bins=bins, histtype="step", linewidth=1.6,
                    label=f"{contract} (n={len(values)})")
    for t in THRESHOLDS:
        ax.axvline(t, color="grey", linestyle="--", linewidth=1)
        ax.text(t, ax.get_ylim()[1] * 0.97, f" {t}", color="grey", va="top")
    ax.set_xlabel("declarer's card points (rounded)")
    ax.set_ylabel("worlds")
    if title:
        ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
