"""Paper A's figures, each assembled from its job's loaded inputs (the functions named in
:mod:`attnspec.papers.a.outputs`; arguments: :mod:`attnspec.workflow.jobs`): the tidy tables
of the spectra and summaries, their drawings, key tables and caption texts."""

import functools

from attnspec.papers.a.bulk_laws_plotted import bulk_laws_plotted_table, ratios_plotted_table
from attnspec.papers.a.bulk_laws_summary import (
    BULK_LAWS_TABLE_HEADER,
    RATIO_TABLE_HEADER,
    bulk_laws_table_rows,
    ratio_table_rows,
    unpack_panels,
)
from attnspec.papers.a.edges_plotted import edge_plotted_table
from attnspec.papers.a.edges_summary import (
    EDGE_TABLE_HEADER,
    edge_table_rows,
    edge_theory_curves,
    simulated_edges,
)
from attnspec.papers.a.full_spectrum import unpack_draws
from attnspec.papers.a.full_spectrum_plotted import full_spectrum_plotted_table
from attnspec.papers.a.full_spectrum_summary import (
    FULL_SPECTRUM_TABLE_HEADER,
    REFERENCE_TABLE_HEADER,
    full_spectrum_reference_rows,
    full_spectrum_table_rows,
    summarise_full_spectrum,
)
from attnspec.papers.a.limit_law_plotted import limit_law_plotted_table
from attnspec.papers.a.limit_law_summary import LIMIT_LAW_TABLE_HEADER, limit_law_table_rows
from attnspec.papers.a.linearisation_findings import collapse_statement
from attnspec.papers.a.linearisation_plotted import linearisation_plotted_table
from attnspec.papers.a.linearisation_summary import (
    DISTANCE_TABLE_HEADER,
    EXPONENT_TABLE_HEADER,
    collapse_analysis,
    distance_table_rows,
    exponent_table_rows,
    summarise_distances,
)
from attnspec.papers.a.perron_plotted import perron_plotted_table
from attnspec.papers.a.perron_summary import (
    PERRON_TABLE_HEADER,
    perron_table_rows,
    series_of_sizes,
)
from attnspec.papers.a.plot_bulk_laws import plot_bulk_laws, plot_ratios
from attnspec.papers.a.plot_edges import plot_edges
from attnspec.papers.a.plot_full_spectrum import plot_full_spectrum
from attnspec.papers.a.plot_limit_law import plot_limit_law
from attnspec.papers.a.plot_linearisation import plot_linearisation
from attnspec.papers.a.plot_perron import plot_perron
from attnspec.papers.a.plot_stepwise import plot_stepwise
from attnspec.papers.a.stepwise_plotted import stepwise_plotted_table
from attnspec.papers.outputs import FigureParts

STEP_HEADER = ("model", "ks_to_sqrt_ell_A_perp", "ks_to_nu_inf")
"""Header of figure A1's key table: per stepwise model, its Kolmogorov distances to the bulk of
sqrt(ell) A_perp and to nu_inf."""

TABLES_INTRO = (
    "\n\nExponent s of D ~ ell^s (Kolmogorov, attention bulk) with its 95 % interval and spread "
    "across ell of log10 D (decades), at fixed beta and at fixed x = beta / sqrt(log ell) "
    "(descriptive, no verdict): {collapse}.\n\n"
)
"""Figure A5's text before its key tables ({collapse}: the collapse statement)."""


def stepwise_figure(inputs, params, judged) -> FigureParts:
    """A1: the bulk of each stepwise model against nu_inf, with the distances of every model
    (the A.3 row judged)."""
    cfg = params["stepwise"]
    summary = inputs["summary"]
    spectra = {
        model: loaded[model][: cfg["draws"]]
        for model, loaded in zip(params["models"], inputs["spectra"], strict=True)
    }
    table = [
        (str(model), float(ks_attention), float(ks_law))
        for model, ks_attention, ks_law in zip(
            summary["models"], summary["ks_to_attention"], summary["ks_to_nu_inf"], strict=True
        )
    ]
    return FigureParts(
        stepwise_plotted_table(spectra, summary, cfg["n_removed"]),
        functools.partial(plot_stepwise, bins=cfg["histogram_bins"]),
        [(STEP_HEADER, table)],
        intro="\n",
    )


def full_spectrum_figure(inputs, params, judged) -> FigureParts:
    """A2: the full sorted spectrum of sqrt(ell) A, with the per-draw table and the theory
    references."""
    cfg = params["spectrum"]
    parameters = dict(n_tokens=cfg["n_tokens"], d_qk=cfg["d_qk"], beta=cfg["beta"])
    summary = summarise_full_spectrum(unpack_draws(inputs["draws"]), **parameters)
    return FigureParts(
        full_spectrum_plotted_table(summary),
        plot_full_spectrum,
        [
            (FULL_SPECTRUM_TABLE_HEADER, full_spectrum_table_rows(summary)),
            (REFERENCE_TABLE_HEADER, full_spectrum_reference_rows(summary)),
        ],
    )


def bulk_laws_figure(inputs, params, judged) -> FigureParts:
    """A3: the bulk against nu_inf and the MP surrogate, with its table (the A.4 rows judged)."""
    cfg = params["bulk_laws"]
    draws = cfg["draws"]
    panels = unpack_panels(inputs["summary"])
    attention = [loaded["attention"][:draws] for loaded in inputs["attention"]]
    linear = [loaded["linear"][:draws] for loaded in inputs["linear"]]
    return FigureParts(
        bulk_laws_plotted_table(panels, attention, linear),
        functools.partial(plot_bulk_laws, bins=cfg["histogram_bins"]),
        [(BULK_LAWS_TABLE_HEADER, bulk_laws_table_rows(panels))],
    )


def edge_figure(inputs, params, judged) -> FigureParts:
    """A4: the edge x_+(beta) against 4 theta_1, with the table of the simulated top values of
    Y_lin."""
    cfg = params["edge_curve"]
    simulated = simulated_edges(
        [list(loaded["linear"][: cfg["draws"]]) for loaded in inputs["spectra"]],
        cfg["simulated_betas"],
        cfg["n_tokens"],
    )
    theory = edge_theory_curves(
        cfg["beta_min"], cfg["beta_max"], cfg["theory_points"], cfg["n_tokens"]
    )
    return FigureParts(
        edge_plotted_table(theory, simulated),
        functools.partial(plot_edges, n_tokens=cfg["n_tokens"]),
        [(EDGE_TABLE_HEADER, edge_table_rows(simulated))],
        intro="\n",
    )


def linearisation_figure(inputs, params, judged) -> FigureParts:
    """A5: the linearisation threshold, with the exponent and distance tables (the A.1 and A.5
    rows judged)."""
    summary = summarise_distances(inputs["distances"])
    collapse = collapse_analysis(summary)
    return FigureParts(
        linearisation_plotted_table(summary, collapse),
        plot_linearisation,
        [
            (EXPONENT_TABLE_HEADER, exponent_table_rows(summary, collapse)),
            (DISTANCE_TABLE_HEADER, distance_table_rows(summary)),
        ],
        TABLES_INTRO.format(collapse=collapse_statement(collapse)),
    )


def perron_figure(inputs, params, judged) -> FigureParts:
    """A6: |s_1(A) - 1| and the stable rank against ell, with its table (the A.2 rows judged)."""
    series = [
        series_of_sizes(beta, loaded)
        for beta, loaded in zip(params["perron"]["betas"], inputs["points"], strict=True)
    ]
    return FigureParts(
        perron_plotted_table(series),
        plot_perron,
        [(PERRON_TABLE_HEADER, perron_table_rows(series))],
    )


def ratios_figure(inputs, params, judged) -> FigureParts:
    """A7: nu_inf across c = ell / d_qk, with its table."""
    cfg = params["ratios"]
    panels = unpack_panels(inputs["summary"])
    attention = [loaded["attention"][: cfg["draws"]] for loaded in inputs["spectra"]]
    return FigureParts(
        ratios_plotted_table(panels, attention),
        functools.partial(plot_ratios, n_tokens=cfg["n_tokens"], bins=cfg["histogram_bins"]),
        [(RATIO_TABLE_HEADER, ratio_table_rows(panels))],
        intro="\n",
    )


def limit_law_figure(inputs, params, judged) -> FigureParts:
    """A8: the limit law nu_inf against its Marchenko-Pastur surrogate (theory only), with the
    table of each density panel's numbers."""
    cfg = params["limit_law"]
    plotted = limit_law_plotted_table(
        cfg["betas"],
        cfg["ratios"],
        cfg["ratio_beta"],
        cfg["density_points"],
        cfg["beta_min"],
        cfg["beta_max"],
        cfg["beta_points"],
    )
    rows = limit_law_table_rows(cfg["betas"], cfg["ratios"], cfg["ratio_beta"])
    return FigureParts(plotted, plot_limit_law, [(LIMIT_LAW_TABLE_HEADER, rows)], intro="\n")
