"""Paper C's figures, each assembled from its job's loaded inputs (the functions named in
:mod:`attnspec.papers.c.outputs`; arguments: :mod:`attnspec.workflow.jobs`): the canonical
model's spectra, bulk, stable ranks and spike survival (C1-C4) and the pretrained model's
diagnostics (C5-C7), their tidy tables, drawings, key tables and caption texts."""

import functools

from attnspec.models.softmax import MASKS
from attnspec.papers.c.assemble_tables import stable_ranks_and_rows
from attnspec.papers.c.degeneration_plotted import (
    bulk_plotted_table,
    spectra_plotted_table,
    stable_rank_plotted_table,
    survival_plotted_table,
)
from attnspec.papers.c.degeneration_summary import (
    BULK_TABLE_HEADER,
    SPECTRA_TABLE_HEADER,
    STABLE_RANK_TABLE_HEADER,
    SURVIVAL_TABLE_HEADER,
    bulk_series,
    bulk_table_rows,
    counts_by_size,
    spectra_table_rows,
    survival_table_rows,
)
from attnspec.papers.c.plot_degeneration import (
    plot_bulk,
    plot_spectra,
    plot_stable_rank,
    plot_survival,
)
from attnspec.papers.c.plot_pretrained import plot_eigen_angles, plot_score_spectra
from attnspec.papers.c.plot_pretrained_stable_rank import plot_pretrained_stable_rank
from attnspec.papers.c.pretrained_plotted import eigen_angle_plotted_table
from attnspec.papers.c.pretrained_plotted import (
    spectra_plotted_table as score_spectra_plotted_table,
)
from attnspec.papers.c.pretrained_stable_rank_plotted import (
    stable_rank_plotted_table as pretrained_stable_rank_plotted_table,
)
from attnspec.papers.c.pretrained_stable_rank_summary import SLOPE_HEADER, slope_rows
from attnspec.papers.c.pretrained_summary import (
    ANGLE_LAYER_HEADER,
    POWER_HEADER,
    TESTS_HEADER,
    angle_layer_rows,
    power_rows,
    spectra_layer_header,
    spectra_layer_rows,
    tests_rows,
    tests_text,
)
from attnspec.papers.outputs import FigureParts
from attnspec.pretrained.loader import FINE_TUNED_TOKENS, HEAD_WIDTH


def spectra_figure(inputs, params, judged) -> FigureParts:
    """C1: singular values of S and of A per profile, with the key numbers; verdicts of C.1 and
    C.2."""
    model, cfg = params["model"], params["spectra"]
    spectra = inputs["spectra"]
    table = spectra_table_rows(
        spectra, profiles=cfg["profiles"], spikes=model["spikes"], n=cfg["n_tokens"]
    )
    return FigureParts(
        spectra_plotted_table(spectra, profiles=cfg["profiles"]),
        functools.partial(plot_spectra, spikes=model["spikes"]),
        [(SPECTRA_TABLE_HEADER, table)],
        intro="\n",
    )


def bulk_figure(inputs, params, judged) -> FigureParts:
    """C2: bulk distribution of n s_k(A) for growing n and its quantiles against n; verdicts of
    C.2."""
    model, cfg = params["model"], params["bulk"]
    n_tokens = cfg["n_tokens"]
    jobs = counts_by_size(inputs["counts"], n_tokens)
    series = [
        bulk_series(profile, mask, n_tokens, jobs, model["spikes"])
        for profile in cfg["profiles"]
        for mask in MASKS
    ]
    tidy = bulk_plotted_table(
        jobs,
        series,
        n_tokens=n_tokens,
        profiles=cfg["profiles"],
        spikes=model["spikes"],
        bulk_scale=model["bulk_scale"],
    )
    return FigureParts(tidy, plot_bulk, [(BULK_TABLE_HEADER, bulk_table_rows(series))], intro="\n")


def stable_rank_figure(inputs, params, judged) -> FigureParts:
    """C3: stable rank against n, canonical, isotropic and Gaussian models and the Cesaro
    matrix, with table C-T1's rows; verdicts of C.3 and C.4."""
    data, table = stable_ranks_and_rows(inputs, params)
    reference = inputs["reference"]
    spikes, beta = params["model"]["spikes"], params["gaussian_model"]["beta"]
    return FigureParts(
        stable_rank_plotted_table(data, reference, spikes=spikes, beta=beta),
        functools.partial(plot_stable_rank, beta=beta),
        [(STABLE_RANK_TABLE_HEADER, table)],
        intro="\n",
    )


def spike_survival_figure(inputs, params, judged) -> FigureParts:
    """C4: spike survival against kappa per mask and n, with the key numbers; verdicts of
    C.1."""
    cfg = params["survival"]
    jobs = inputs["survival"]
    return FigureParts(
        survival_plotted_table(jobs, n_tokens=cfg["n_tokens"]),
        functools.partial(plot_survival, spikes=params["model"]["spikes"], profile=cfg["profile"]),
        [(SURVIVAL_TABLE_HEADER, survival_table_rows(jobs, cfg["n_tokens"]))],
        intro="\n",
    )


def eigen_angles_figure(inputs, params, judged) -> FigureParts:
    """C5: eigen-angle diagnostics of the pretrained model, with the per-layer distances, the
    two-sample tests of the eigen-angle distances and their power; verdicts of C.5."""
    cfg = params["pretrained"]
    controls = {name: inputs[f"control_{name}"] for name in ("aligned", "local")}
    tests = inputs["tests"]
    tidy = eigen_angle_plotted_table(
        inputs["model_full_rank"],
        inputs["model_long"],
        inputs["isotropic_full_rank"],
        inputs["isotropic_long"],
        bins=cfg["histogram_bins"],
        controls=controls,
        reference_q95=float(tests["reference_q95"]),
    )

    def key_tables(frame):
        distances = frame[(frame["kind"] == "data") & (frame["panel"] == "distances")]
        sizes = distances.groupby("series").size()
        sizes["null"] = sizes["reference"] // 2
        return [
            (ANGLE_LAYER_HEADER, angle_layer_rows(frame)),
            (TESTS_HEADER, tests_rows(tests, sizes)),
            (POWER_HEADER, power_rows(tests)),
        ]

    return FigureParts(
        tidy,
        functools.partial(
            plot_eigen_angles,
            n_full=cfg["full_rank_passages"]["tokens"],
            n_long=cfg["long_passages"]["tokens"],
            bins=cfg["histogram_bins"],
        ),
        key_tables,
        intro="\n\n" + tests_text(tests) + "\n",
    )


def score_spectra_figure(inputs, params, judged) -> FigureParts:
    """C6: score spectra, top-k energies and attention stable ranks of the pretrained model,
    with the per-layer numbers; verdicts of C.6."""
    top_k = params["pretrained"]["top_k"]
    tidy = score_spectra_plotted_table(inputs["model_long"], inputs["isotropic_long"], top_k=top_k)
    return FigureParts(
        tidy,
        functools.partial(plot_score_spectra, top_k=top_k),
        lambda frame: [(spectra_layer_header(top_k), spectra_layer_rows(frame))],
        intro="\n",
    )


def pretrained_stable_rank_figure(inputs, params, judged) -> FigureParts:
    """C7: stable rank of the pretrained model's attention against the passage length n (both
    masks, the same scores), with the slopes on log n, their bootstrap intervals and the
    references' slopes."""
    cfg = params["lengths"]
    lengths = {int(n): loaded for n, loaded in zip(cfg["tokens"], inputs["lengths"], strict=True)}
    tidy = pretrained_stable_rank_plotted_table(lengths, HEAD_WIDTH, cfg["bootstrap_resamples"])
    return FigureParts(
        tidy,
        functools.partial(
            plot_pretrained_stable_rank, fine_tuned_tokens=FINE_TUNED_TOKENS, head_width=HEAD_WIDTH
        ),
        lambda frame: [(SLOPE_HEADER, slope_rows(frame))],
        intro="\n",
    )
