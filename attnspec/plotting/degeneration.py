"""Figures C1-C4 (paper C, spectral degeneration): layouts and the rows of numbers they draw."""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.experiments.degeneration_summary import (
    ASYMPTOTIC_CAUSAL_SLOPE,
    BulkSeries,
    CesaroReference,
    StableRankSeries,
    iid_bidirectional_bulk_cdf,
    mean_spike_value,
)
from attnspec.models.softmax import MASKS
from attnspec.plotting.style import (
    DATA_COLOUR,
    REFERENCE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    new_figure,
)

BAND_DRAWS = 10
"""Quantile bands (10-90 %) need at least this many draws; fewer are drawn one by one."""

MASK_COLOURS = {"bidirectional": DATA_COLOUR, "causal": "#DD8452"}
PROFILE_MARKERS = {"zeros": "s", "iid": "o", "gaussian": "^"}
FLOOR = 1e-12
"""Singular values below this (exact zeros to rounding) are drawn at the floor in C1."""


FOOTER_CHARACTERS_PER_INCH = 17
"""Characters of the 6.5 pt verdict footer per inch of figure width (for its line breaks)."""


def add_verdicts(figure, rows: Sequence[Mapping]) -> None:
    """The judged rows' short labels (row id, verdict, fragility) as a footer below the axes,
    which the constrained layout keeps clear (rows of ``{results}/paperC/claims.csv``; the
    figure computes no verdict)."""
    import textwrap

    from attnspec.dashboard import verdict_label

    if not rows:
        return
    width, height = figure.get_size_inches()
    text = "Verdicts: " + "; ".join(verdict_label(row) for row in rows)
    lines = textwrap.wrap(text, int(FOOTER_CHARACTERS_PER_INCH * width))
    share = (len(lines) * 6.5 * 1.3 / 72 + 0.08) / height
    figure.get_layout_engine().set(rect=(0.0, share, 1.0, 1.0 - share))
    figure.text(0.01, 0.01, "\n".join(lines), fontsize=6.5, ha="left", va="bottom")


def band_or_draws(ax, x, values, colour, *, marker="o", label=None, ls="-", summary="median"):
    """Per-x median (or mean) of ``values`` (len(x), draws) with the 10-90 % band over draws
    when there are at least BAND_DRAWS of them, else every draw as a small marker."""
    values = np.asarray(values, dtype=np.float64)
    centre = np.median(values, axis=1) if summary == "median" else values.mean(axis=1)
    ax.plot(x, centre, color=colour, marker=marker, ms=3.5, lw=1.1, ls=ls, label=label)
    if values.shape[1] >= BAND_DRAWS:
        low, high = np.quantile(values, [0.1, 0.9], axis=1)
        ax.fill_between(x, low, high, color=colour, alpha=0.2, lw=0)
    elif values.shape[1] > 1:
        for column in values.T:
            ax.plot(x, column, ls="none", marker=".", ms=2.5, color=colour, alpha=0.6)


def _size_colours(count: int):
    import matplotlib

    return matplotlib.colormaps["viridis"](np.linspace(0.0, 0.85, count))


def plot_spectra(
    spectra: Mapping,
    *,
    profiles: Sequence[str],
    n: int,
    spikes: int,
    kappa: float,
    verdicts: Sequence[Mapping] = (),
):
    """C1: every singular value of S = diag(sigma) and of A (bidirectional, causal) against
    the rank, one panel per bulk profile; the isotropic softmax(U Sigma V^T) in its profile's
    panel."""
    apply_style()
    figure, axes = new_figure(1, len(profiles), width=3.3 * len(profiles), height=3.2)
    ranks = np.arange(1, n + 1)
    isotropic = str(spectra["isotropic_profile"]) if "isotropic_profile" in spectra else None
    for ax, profile in zip(axes[0], profiles, strict=True):
        ax.plot(
            ranks,
            np.maximum(spectra[f"{profile}/scores"], FLOOR),
            color=REFERENCE_COLOUR,
            lw=1.4,
            label=r"$S=\mathrm{diag}(\sigma)$",
        )
        for mask in MASKS:
            ax.plot(
                ranks,
                np.maximum(spectra[f"{profile}/{mask}/attention"], FLOOR),
                color=MASK_COLOURS[mask],
                lw=1.2,
                label=f"A, {mask}",
            )
        if profile == isotropic:
            for mask in MASKS:
                ax.plot(
                    ranks,
                    np.maximum(spectra[f"isotropic/{mask}/attention"], FLOOR),
                    color=MASK_COLOURS[mask],
                    lw=1.0,
                    ls="--",
                    label=rf"softmax$(U\Sigma V^T)$, {mask}",
                )
        ax.axvline(spikes + 1, color="0.6", lw=0.7, ls=":")
        ax.axhline(1.0, color="0.6", lw=0.7, ls=":")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(FLOOR / 3, None)
        ax.set_xlabel("rank $k$")
        ax.set_title(f"bulk profile: {profile}")
    axes[0, 0].set_ylabel("singular value $s_k$")
    for ax in axes[0]:
        ax.legend(frameon=False, loc="lower left", fontsize=6)
    figure.suptitle(
        f"Canonical model, n = {n}: {spikes} spikes $\\sigma = {kappa:g}\\,\\log n$ survive the "
        f"softmax ($s_k(A)\\approx 1$, $k \\leq {spikes + 1}$), the bulk collapses "
        f"(values < {FLOOR:g} drawn at {FLOOR:g}); the isotropic model loses them",
        fontsize=9,
    )
    add_verdicts(figure, verdicts)
    return figure


def spectra_plotted_rows(spectra: Mapping, *, profiles: Sequence[str]):
    """(profile, series, rank, singular value) for every point of :func:`plot_spectra`."""
    for profile in profiles:
        series = [("scores", spectra[f"{profile}/scores"])]
        series += [(f"attention_{m}", spectra[f"{profile}/{m}/attention"]) for m in MASKS]
        if "isotropic_profile" in spectra and str(spectra["isotropic_profile"]) == profile:
            series += [(f"isotropic_{m}", spectra[f"isotropic/{m}/attention"]) for m in MASKS]
        for name, values in series:
            for k, value in enumerate(values, start=1):
                yield (profile, name, k, float(value))


def _bulk_cdf(counts, n: int, spikes: int) -> np.ndarray:
    """Mean over draws of min(N(x) / (n - r - 1), 1): the bulk distribution function."""
    return np.minimum(np.asarray(counts) / (n - spikes - 1), 1.0).mean(axis=0)


def plot_bulk(
    jobs: Sequence[Mapping],
    series: Sequence[BulkSeries],
    *,
    n_tokens: Sequence[int],
    profiles: Sequence[str],
    spikes: int,
    bulk_scale: float,
    verdicts: Sequence[Mapping] = (),
):
    """C2: the bulk distribution of n s_k(A) for every n (one panel per profile and mask) and
    the median / 0.9 quantile of s_k(A) against n (last column)."""
    apply_style()
    figure, axes = new_figure(len(profiles), 3, width=11.0, height=2.9 * len(profiles))
    colours = _size_colours(len(n_tokens))
    for row, profile in enumerate(profiles):
        for col, mask in enumerate(MASKS):
            ax = axes[row, col]
            for job, n, colour in zip(jobs, n_tokens, colours, strict=True):
                cdf = _bulk_cdf(job[f"{profile}/{mask}/counts"], n, spikes)
                label = f"n = {n}" if mask == "causal" else None
                ax.plot(job["grid"], cdf, color=colour, lw=1.1, label=label)
            if profile == "iid" and mask == "bidirectional":
                grid = jobs[0]["grid"]
                ax.plot(
                    grid,
                    iid_bidirectional_bulk_cdf(grid, bulk_scale),
                    color=THEORY_COLOUR,
                    ls="--",
                    lw=1.1,
                    label=r"limit $|e^{\beta\xi}-1|$",
                )
            if profile == "zeros" and mask == "bidirectional":
                ax.text(
                    0.5,
                    0.5,
                    "bulk exactly 0 (rank r + 1):\nF = 1 for every x > 0",
                    transform=ax.transAxes,
                    ha="center",
                    va="center",
                )
            ax.set_xscale("log")
            ax.set_ylim(-0.02, 1.02)
            ax.set_xlabel(r"$n\,s_k(A)$")
            ax.set_ylabel("bulk distribution function")
            ax.set_title(f"{profile} bulk, {mask}")
        axes[row, 1].legend(frameon=False, loc="lower right", fontsize=6)
        if profile == "iid":
            axes[row, 0].legend(frameon=False, loc="upper left", fontsize=6)
        ax = axes[row, 2]
        resolved = [s for s in series if s.profile == profile and np.all(np.isfinite(s.median))]
        for s in resolved:
            n = s.n_tokens.astype(float)
            for values, style, label in ((s.median, "-", "median"), (s.upper, ":", "0.9 quantile")):
                band_or_draws(
                    ax,
                    n,
                    values / n[:, None],
                    MASK_COLOURS[s.mask],
                    ls=style,
                    label=f"{label}, {s.mask}",
                )
        if resolved:
            n = np.asarray(n_tokens, dtype=float)
            anchor = 0.3 * min(float(np.mean(s.median[0])) / s.n_tokens[0] for s in resolved)
            ax.plot(n, anchor * n[0] / n, color="0.5", lw=0.8, ls="--", label=r"$\propto 1/n$")
            ax.legend(frameon=False, fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0))
        else:
            ax.text(
                0.5,
                0.5,
                "bulk exactly 0\n(rank r + 1)",
                transform=ax.transAxes,
                ha="center",
                va="center",
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel("bulk singular value $s$")
        ax.set_title(f"{profile} bulk: quantiles against n")
    figure.suptitle(
        f"Bulk singular values of A (all but the top {spikes + 1}) concentrate at 0 on the scale "
        "1/n: distribution of n s (exact inertia counts)",
        fontsize=9,
    )
    add_verdicts(figure, verdicts)
    return figure


def bulk_plotted_rows(jobs, series, *, n_tokens, profiles, spikes, bulk_scale):
    """Rows (panel, profile, mask, n, x, y) of every point of :func:`plot_bulk`."""
    for job, n in zip(jobs, n_tokens, strict=True):
        for profile in profiles:
            for mask in MASKS:
                cdf = _bulk_cdf(job[f"{profile}/{mask}/counts"], n, spikes)
                for x, y in zip(job["grid"], cdf, strict=True):
                    yield ("distribution", profile, mask, int(n), float(x), float(y))
    if "iid" in profiles:
        grid = jobs[0]["grid"]
        for x, y in zip(grid, iid_bidirectional_bulk_cdf(grid, bulk_scale), strict=True):
            yield ("distribution", "iid", "bidirectional_limit", 0, float(x), float(y))
    for s in series:
        for level, values in (("median", s.median), ("quantile_0.9", s.upper)):
            for n, row in zip(s.n_tokens, values, strict=True):
                yield (level, s.profile, s.mask, int(n), float(n), float(np.median(row) / n))


def _log_fit(ax, n, series):
    """The fitted line intercept + slope log n of a series' stable rank (dashed, its colour),
    labelled with the slope's 95 % Student-t interval."""
    fit = series.fit()
    low, high = fit.interval()
    ax.plot(
        n,
        fit.intercept + fit.slope * np.log(n),
        color=MASK_COLOURS[series.mask],
        lw=0.7,
        ls="--",
        label=f"OLS slope {fit.slope:.3f} [{low:.3f}, {high:.3f}] per log n",
    )


def plot_stable_rank(
    canonical: Sequence[StableRankSeries],
    isotropic: Sequence[StableRankSeries],
    gaussian: Sequence[StableRankSeries],
    cesaro: CesaroReference,
    *,
    spikes: int,
    beta: float,
    reference: Mapping,
    verdicts: Sequence[Mapping] = (),
):
    """C3: (a) canonical srank against n, bidirectional approaching r + 1 like
    (r + 1) / (1 + sqrt(r / n)), causal growing like log n with its OLS fit, the Cesaro
    reference and the isotropic model; (b) the Gaussian model with its derived references;
    (c) the Cesaro norm -> 2 and ||C_n||_F^2 = H_n. Medians with 10-90 % bands over >= 10 draws
    (fewer: every draw)."""
    apply_style()
    figure, axes = new_figure(1, 3, width=11.5, height=5.2)
    ax = axes[0, 0]
    for s in canonical:
        n = s.n_tokens.astype(float)
        band_or_draws(
            ax,
            n,
            s.stable_rank,
            MASK_COLOURS[s.mask],
            marker=PROFILE_MARKERS[s.profile],
            label=f"{s.mask}, {s.profile} bulk",
        )
        if s.mask == "causal":
            _log_fit(ax, n, s)
    for s in isotropic:
        ax.plot(
            s.n_tokens,
            np.median(s.stable_rank, axis=1),
            ls="none",
            marker="x",
            ms=6,
            color=MASK_COLOURS[s.mask],
            label=rf"softmax$(U\Sigma V^T)$, {s.mask}",
        )
    n = cesaro.n_tokens.astype(float)
    ax.plot(
        n,
        cesaro.stable_rank,
        color=REFERENCE_COLOUR,
        lw=1.0,
        label=r"Cesàro $H_n/\|C_n\|^2$ ($\beta=0$, no spike)",
    )
    ax.plot(
        n,
        cesaro.harmonic / 4.0,
        color=REFERENCE_COLOUR,
        lw=0.8,
        ls=":",
        label=r"$H_n/4$ (Hardy: $\|C_n\|\to 2$)",
    )
    ax.axhline(
        spikes + 1, color=THEORY_COLOUR, lw=0.9, ls="--", label=f"limit r + 1 = {spikes + 1}"
    )
    fine = np.geomspace(n[0], n[-1], 200)
    ax.plot(
        fine,
        (spikes + 1) / (1 + np.sqrt(spikes / fine)),
        color=THEORY_COLOUR,
        lw=0.8,
        ls="-.",
        label=r"derived $(r+1)/(1+\sqrt{r/n})$",
    )
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n")
    ax.set_ylabel(r"stable rank $\|A\|_F^2/\|A\|^2$")
    ax.set_title("canonical model diag(σ)")
    ax.legend(frameon=False, fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    ax = axes[0, 1]
    for s in gaussian:
        n = s.n_tokens.astype(float)
        band_or_draws(ax, n, s.stable_rank, MASK_COLOURS[s.mask], label=s.mask)
        if s.mask == "causal" and s.n_tokens.size > 1:
            _log_fit(ax, n, s)
    n = np.asarray(reference["n_tokens"], dtype=float)
    for mask, text in (
        ("bidirectional", r"derived $E\|A\|_F^2/(1+\theta_1/n+\beta^4/2d)$"),
        (
            "causal",
            r"derived $E\|A\|_F^2/\lambda_{max}(E AA^T)$, slope "
            f"{float(reference['causal/slope']):.3f}",
        ),
    ):
        ax.plot(
            n,
            reference[f"{mask}/stable_rank"],
            color=THEORY_COLOUR,
            lw=0.9,
            ls="-." if mask == "causal" else ":",
            label=text,
        )
    ax.axhline(
        np.exp(beta**2),
        color=THEORY_COLOUR,
        lw=0.9,
        ls="--",
        label=rf"limit $e^{{\beta^2}}$ = {np.exp(beta**2):.3f}",
    )
    ax.set_xscale("log", base=2)
    ax.set_xlabel(r"$n = \ell = d_{qk}$")
    ax.set_ylabel("stable rank")
    ax.set_title(rf"Gaussian model softmax$(\beta QK^T/\sqrt{{d_{{qk}}}})$, $\beta$ = {beta:g}")
    ax.legend(frameon=False, fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    ax = axes[0, 2]
    n = cesaro.n_tokens.astype(float)
    ax.plot(
        n,
        cesaro.norm,
        color=REFERENCE_COLOUR,
        marker="o",
        ms=3.5,
        lw=1.1,
        label=r"$\|C_n\|$ (Lanczos)",
    )
    ax.axhline(2.0, color=THEORY_COLOUR, lw=0.9, ls="--", label="Hardy limit 2")
    gap = np.max(np.abs(cesaro.frobenius_squared - cesaro.harmonic))
    ax.text(
        0.03,
        0.8,
        rf"max$_n$ $|\|C_n\|_F^2 - H_n|$ = {gap:.1e}",
        transform=ax.transAxes,
        ha="left",
        va="top",
        fontsize=6.5,
    )
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n")
    ax.set_ylabel("operator norm")
    ax.set_title(r"Cesàro matrix $C_n$: slow approach to 2")
    ax.legend(frameon=False, fontsize=6, loc="lower right")
    figure.suptitle(
        "Stable rank: bounded for bidirectional attention, growing like log n for causal "
        f"(Cesàro asymptotic slope {ASYMPTOTIC_CAUSAL_SLOPE:g}; Gaussian model: derived "
        "finite-n reference)",
        fontsize=9,
    )
    add_verdicts(figure, verdicts)
    return figure


def stable_rank_plotted_rows(canonical, isotropic, gaussian, cesaro, reference, spikes):
    """Rows (model, profile, mask, quantity, n, draw, value) of :func:`plot_stable_rank`: every
    draw's stable rank, the Cesaro norm, Frobenius norm and H_n (draw 0), the derived canonical
    approach and the Gaussian model's references (draw -1: theory)."""
    for s in (*canonical, *isotropic, *gaussian):
        for n, row in zip(s.n_tokens, s.stable_rank, strict=True):
            for draw, value in enumerate(row):
                yield (s.model, s.profile, s.mask, "stable_rank", int(n), draw, float(value))
    for i, n in enumerate(cesaro.n_tokens):
        for name, value in (
            ("stable_rank", cesaro.stable_rank[i]),
            ("norm", cesaro.norm[i]),
            ("frobenius_squared", cesaro.frobenius_squared[i]),
            ("harmonic_number", cesaro.harmonic[i]),
        ):
            yield ("cesaro", "zeros", "causal", name, int(n), 0, float(value))
        approach = (spikes + 1) / (1 + np.sqrt(spikes / n))
        yield ("canonical", "derived", "bidirectional", "stable_rank", int(n), -1, float(approach))
    for mask in MASKS:
        for n, value in zip(reference["n_tokens"], reference[f"{mask}/stable_rank"], strict=True):
            yield ("gaussian", "derived", mask, "stable_rank", int(n), -1, float(value))


def plot_survival(
    jobs: Sequence[Mapping],
    *,
    n_tokens: Sequence[int],
    spikes: int,
    profile: str,
    verdicts: Sequence[Mapping] = (),
):
    """C4: mean spike-tied singular value of A against kappa (spikes sigma = kappa log n) for
    every n, with the mean explicit spike diagonal A_pp; transition near kappa = 1."""
    apply_style()
    figure, axes = new_figure(1, 2, width=8.0, height=3.3)
    colours = _size_colours(len(n_tokens))
    for ax, mask in zip(axes[0], MASKS, strict=True):
        for job, n, colour in zip(jobs, n_tokens, colours, strict=True):
            kappas = job["kappas"]
            ax.plot(
                kappas,
                mean_spike_value(job, mask),
                color=colour,
                marker="o",
                ms=3,
                lw=1.1,
                label=f"n = {n}: spike-tied $s(A)$",
            )
            ax.plot(
                kappas,
                job[f"{mask}/spike_diagonal"].mean(axis=(1, 2)),
                color=colour,
                lw=0.8,
                ls="--",
            )
        ax.axvline(1.0, color=THEORY_COLOUR, lw=0.9, ls=":", label=r"$\kappa = 1$")
        ax.plot([], [], color="0.4", lw=0.8, ls="--", label=r"explicit $A_{pp}$ (mean)")
        ax.set_xlabel(r"$\kappa$ (spikes $\sigma_p = \kappa \log n$)")
        ax.set_ylabel(f"mean of the {spikes} spike-tied singular values")
        ax.set_title(f"{mask}, {profile} bulk")
        ax.set_ylim(-0.03, 1.05)
    axes[0, 0].legend(frameon=False, fontsize=6, loc="upper left")
    figure.suptitle(
        "Spike survival: the spike-tied singular values of A switch from 0 to 1 around "
        r"$\kappa = 1$, sharper as n grows (a lost spike counts as 0)",
        fontsize=9,
    )
    add_verdicts(figure, verdicts)
    return figure


def survival_plotted_rows(jobs, *, n_tokens):
    """Rows (mask, n, kappa, series, value) of :func:`plot_survival`."""
    for job, n in zip(jobs, n_tokens, strict=True):
        for mask in MASKS:
            tied = mean_spike_value(job, mask)
            diagonal = job[f"{mask}/spike_diagonal"].mean(axis=(1, 2))
            for kappa, t, d in zip(job["kappas"], tied, diagonal, strict=True):
                yield (mask, int(n), float(kappa), "spike_tied_singular_value", float(t))
                yield (mask, int(n), float(kappa), "spike_diagonal", float(d))
