"""Figure A1: stepwise approximation figure (PDF, PNG), the numbers plotted, and its caption."""

from attnspec.dashboard import rows_of
from attnspec.io import configure_logging, load_npz, read_csv, write_figure_outputs
from attnspec.plotting.stepwise import plot_stepwise, stepwise_plotted_rows

STEP_HEADER = ("model", "ks_to_sqrt_ell_A_perp", "ks_to_nu_inf")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.stepwise
    summary = load_npz(smk.input.summary)
    figure = plot_stepwise(summary, n_tokens=cfg["n_tokens"], n_draws=cfg["draws"])
    rows = [
        (str(model), float(ks_attention), float(ks_law))
        for model, ks_attention, ks_law in zip(
            summary["models"], summary["ks_to_attention"], summary["ks_to_nu_inf"], strict=True
        )
    ]
    write_figure_outputs(
        smk,
        figure,
        ("panel", "model", "series", "x", "y"),
        stepwise_plotted_rows(summary),
        tables=[(STEP_HEADER, rows)],
        judged=rows_of(read_csv(smk.input.claims), "A.3"),
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
