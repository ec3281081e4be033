"""Figure B7: where sticking becomes visible — the critical size ell*(beta) at which the typical
largest entry theta_max of sqrt(ell) A_perp falls below the outlier threshold 1/G*, with the
sticking grids of this preset and of the paper preset, and theta_max per draw against ell with
its model quantiles (c = 1), drawn from its tidy table (PDF, PNG, CSV); its caption with ell*
per (c, beta) and the measured against the predicted median theta_max."""

from attnspec.papers.b.plot_visibility import plot_visibility
from attnspec.papers.b.sticking_summary import collect_series
from attnspec.papers.b.visibility_plotted import (
    CRITICAL_KEY_HEADER,
    SPIKE_KEY_HEADER,
    SQUARE,
    critical_size_rows,
    spike_key_rows,
    visibility_findings,
    visibility_plotted_table,
)
from attnspec.papers.draw_batches import unstack_draws
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged


def square_series(paths):
    records = [r for path in paths for r in unstack_draws(load_npz(path))]
    return [s for s in collect_series(records) if s.ratio == SQUARE]


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    series, stored = square_series(smk.input.draws), square_series(smk.input.stored)
    run, paper = smk.params.sticking, smk.params.paper_sticking
    grids = {
        "run": (run["n_tokens"], run["betas"]),
        "paper": (paper["n_tokens"], paper["betas"]),
    }
    ratios = smk.params.ratio_scan["ratios"]
    plotted = visibility_plotted_table(series, stored, grids, ratios)
    figure = plot_visibility(write_plotted(smk, plotted))
    betas = sorted({s.beta for s in series})
    write_figure_outputs(
        smk,
        figure,
        tables=[
            (CRITICAL_KEY_HEADER, critical_size_rows(betas, ratios)),
            (SPIKE_KEY_HEADER, spike_key_rows(plotted)),
        ],
        intro=visibility_findings(plotted),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
