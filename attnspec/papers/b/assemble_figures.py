"""Paper B's figures, each assembled from its job's loaded inputs (the functions named in
:mod:`attnspec.papers.b.outputs`; arguments: :mod:`attnspec.workflow.jobs`): the series of the
sticking and conditional draws, their tidy tables, drawings, key tables and caption texts."""

import functools

from attnspec.papers.b.conditional_findings import conditional_findings
from attnspec.papers.b.conditional_plotted import (
    conditional_plotted_table,
    population_plotted_table,
)
from attnspec.papers.b.conditional_summary import (
    CONDITIONAL_TABLE_HEADER,
    POPULATION_TABLE_HEADER,
    conditional_series,
    conditional_table_rows,
    group_by_size,
    population_series,
    population_table_rows,
)
from attnspec.papers.b.edge_formulas_findings import linear_edge_findings
from attnspec.papers.b.edge_formulas_plotted import edge_formula_plotted_table
from attnspec.papers.b.edge_formulas_summary import (
    SIMULATED_POINT_HEADER,
    edge_curves,
    largest_ell_points,
    r_transform_points,
    simulated_point_rows,
    square_cubic_branches,
)
from attnspec.papers.b.plot_conditional import plot_conditional_edges, plot_population
from attnspec.papers.b.plot_edge_formulas import plot_edge_formulas
from attnspec.papers.b.plot_sticking import plot_gap, plot_sticking, plot_uniform
from attnspec.papers.b.plot_visibility import plot_visibility
from attnspec.papers.b.sticking_findings import edge_findings, gap_findings, uniform_findings
from attnspec.papers.b.sticking_plotted import (
    gap_plotted_table,
    sticking_plotted_table,
    uniform_plotted_table,
)
from attnspec.papers.b.sticking_summary import (
    EDGE_KEY_HEADER,
    GAP_KEY_HEADER,
    UNIFORM_KEY_HEADER,
    collect_series,
    edge_key_rows,
    gap_key_rows,
    split_square,
    uniform_key_rows,
)
from attnspec.papers.b.visibility_findings import visibility_findings
from attnspec.papers.b.visibility_plotted import visibility_plotted_table
from attnspec.papers.b.visibility_summary import (
    CRITICAL_KEY_HEADER,
    SPIKE_KEY_HEADER,
    SQUARE,
    critical_size_rows,
    spike_key_rows,
)
from attnspec.papers.draw_files import draw_records
from attnspec.papers.outputs import FigureParts

SPIKE_BETA_MIN = 1.0
"""Figure B2's panel (b) shows the betas at which spikes matter (papers.md section 3)."""

POPULATION_BINS = 80
"""Histogram bins of figure B6's spectra of Sigma_f and Sigma_G."""


def _by_id(judged) -> dict:
    return {row["row_id"]: row for row in judged}


def sticking_figure(inputs, params, judged) -> FigureParts:
    """B1: ell s_k(A)^2 against ell per (c, beta) with x_+ and Y_lin; key numbers for k = 2."""
    series = collect_series(draw_records(inputs["draws"]))
    square, _ = split_square(series)
    return FigureParts(
        sticking_plotted_table(series),
        plot_sticking,
        [(EDGE_KEY_HEADER, edge_key_rows(series))],
        edge_findings(square, _by_id(judged)),
    )


def gap_figure(inputs, params, judged) -> FigureParts:
    """B2 (c = 1): the relative gap of ell s_2(A)^2, its rate and the spike prediction."""
    series = collect_series(draw_records(inputs["draws"]))
    spike_betas = [s.beta for s in series if s.beta >= SPIKE_BETA_MIN]
    return FigureParts(
        gap_plotted_table(series, spike_betas=spike_betas),
        plot_gap,
        [(GAP_KEY_HEADER, gap_key_rows(series)), (EDGE_KEY_HEADER, edge_key_rows(series))],
        gap_findings(series),
    )


def uniform_figure(inputs, params, judged) -> FigureParts:
    """B3 (c = 1): uniform sticking over three schedules k_ell."""
    series = collect_series(draw_records(inputs["draws"]))
    return FigureParts(
        uniform_plotted_table(series),
        plot_uniform,
        [(UNIFORM_KEY_HEADER, uniform_key_rows(series))],
        uniform_findings(series, _by_id(judged)),
    )


def edge_formula_figure(inputs, params, judged) -> FigureParts:
    """B4: x_+ over (beta, c), the square-model branches, the simulated points at the largest
    ell."""
    cfg = params["edges"]
    curves = edge_curves(cfg["beta_min"], cfg["beta_max"], cfg["theory_points"], cfg["ratios"])
    markers = r_transform_points(cfg["table_betas"], cfg["ratios"])
    series = collect_series(draw_records(inputs["draws"]))
    largest_ell = max(params["ratio_scan"]["n_tokens"])
    return FigureParts(
        edge_formula_plotted_table(curves, markers, square_cubic_branches(curves["beta"]), series),
        plot_edge_formulas,
        [(SIMULATED_POINT_HEADER, simulated_point_rows(largest_ell_points(series)))],
        linear_edge_findings(series, largest_ell, _by_id(judged)),
    )


def conditional_edges_figure(inputs, params, judged) -> FigureParts:
    """B5: the conditional edges of Sigma_f and Sigma_G against x_+ over ell."""
    cfg = params["conditional"]
    sizes, results = group_by_size(draw_records(inputs["draws"]))
    series = conditional_series(cfg["beta"], cfg["ratio"], sizes, results)
    return FigureParts(
        conditional_plotted_table(series),
        plot_conditional_edges,
        [(CONDITIONAL_TABLE_HEADER, conditional_table_rows(series))],
        conditional_findings(series, _by_id(judged)),
        digits=6,
    )


def population_figure(inputs, params, judged) -> FigureParts:
    """B6: the spectra of Sigma_f and Sigma_G against rho = a + b MP_c."""
    cfg = params["conditional"]
    sizes, results = group_by_size(draw_records(inputs["draws"]))
    series = population_series(cfg["beta"], cfg["ratio"], sizes, results)
    return FigureParts(
        population_plotted_table(results, series),
        functools.partial(plot_population, bins=POPULATION_BINS),
        [(POPULATION_TABLE_HEADER, population_table_rows(series))],
    )


def _square_series(stacked) -> list:
    return [s for s in collect_series(draw_records(stacked)) if s.ratio == SQUARE]


def visibility_figure(inputs, params, judged) -> FigureParts:
    """B7 (c = 1): the critical size ell*(beta) where sticking becomes visible, this run's and
    the paper preset's draws."""
    series, stored = _square_series(inputs["draws"]), _square_series(inputs["stored"])
    run, paper = params["sticking"], params["paper_sticking"]
    grids = {"run": (run["n_tokens"], run["betas"]), "paper": (paper["n_tokens"], paper["betas"])}
    ratios = params["ratio_scan"]["ratios"]
    plotted = visibility_plotted_table(series, stored, grids, ratios)
    betas = sorted({s.beta for s in series})
    return FigureParts(
        plotted,
        plot_visibility,
        [
            (CRITICAL_KEY_HEADER, critical_size_rows(betas, ratios)),
            (SPIKE_KEY_HEADER, spike_key_rows(plotted)),
        ],
        visibility_findings(plotted),
    )
