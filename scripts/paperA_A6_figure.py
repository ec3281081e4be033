"""Figure A6: |s_1(A) - 1| and the stable rank against ell (PDF, PNG, CSV), caption with the A.2
rows."""

from attnspec.dashboard import rows_of, verdict_label
from attnspec.experiments.perron import PERRON_TABLE_HEADER, perron_table_rows, series_of_sizes
from attnspec.io import configure_logging, load_npz, read_csv, write_figure_outputs
from attnspec.plotting.perron import perron_plotted_rows, plot_perron

PLOTTED_HEADER = ("panel", "beta", "series", "n_tokens", "draw", "y")


def slope_label(row) -> str:
    """The judged slope with its 95 % interval and the row's verdict."""
    return (
        f"fit slope {float(row['value']):.3f}, 95 % [{float(row['interval_low']):.3f}, "
        f"{float(row['interval_high']):.3f}]\n{verdict_label(row)}"
    )


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.perron
    series = [
        series_of_sizes(beta, load_npz(path))
        for beta, path in zip(cfg["betas"], smk.input.points, strict=True)
    ]
    judged = rows_of(read_csv(smk.input.claims), "A.2/")
    by_id = {row["row_id"]: row for row in judged}
    labels = {
        s.beta: slope_label(by_id[f"A.2/beta={s.beta:g}"])
        for s in series
        if f"A.2/beta={s.beta:g}" in by_id
    }
    figure = plot_perron(series, labels)
    write_figure_outputs(
        smk,
        figure,
        PLOTTED_HEADER,
        perron_plotted_rows(series),
        tables=[(PERRON_TABLE_HEADER, perron_table_rows(series))],
        judged=judged,
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
