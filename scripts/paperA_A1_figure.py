"""Figure A1: the stepwise approximation, drawn from its tidy table (PDF, PNG, CSV), caption with
the distances of every model and the A.3 row."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.a.plot_stepwise import plot_stepwise
from attnspec.papers.a.stepwise import stepwise_plotted_table
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged

STEP_HEADER = ("model", "ks_to_sqrt_ell_A_perp", "ks_to_nu_inf")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.stepwise
    summary = load_npz(smk.input.summary)
    spectra = {
        model: load_npz(path)[model][: cfg["draws"]]
        for model, path in zip(smk.params.models, smk.input.spectra, strict=True)
    }
    plotted = stepwise_plotted_table(spectra, summary, cfg["n_removed"])
    figure = plot_stepwise(write_plotted(smk, plotted), bins=cfg["histogram_bins"])
    table = [
        (str(model), float(ks_attention), float(ks_law))
        for model, ks_attention, ks_law in zip(
            summary["models"], summary["ks_to_attention"], summary["ks_to_nu_inf"], strict=True
        )
    ]
    write_figure_outputs(
        smk,
        figure,
        tables=[(STEP_HEADER, table)],
        judged=rows_of(read_csv(smk.input.claims), "A.3"),
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
