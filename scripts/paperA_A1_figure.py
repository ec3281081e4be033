"""Figure A1: stepwise approximation figure (PDF, PNG), the numbers plotted, and its caption."""

from pathlib import Path

from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.stepwise import plot_stepwise, stepwise_plotted_rows
from attnspec.plotting.style import close
from attnspec.tables import to_markdown

STEP_HEADER = ("model", "ks_to_sqrt_ell_A_perp", "ks_to_nu_inf")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.stepwise
    summary = load_npz(smk.input.summary)
    figure = plot_stepwise(summary, n_tokens=cfg["n_tokens"], n_draws=cfg["draws"])
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(
        smk.output.plotted, ("panel", "model", "series", "x", "y"), stepwise_plotted_rows(summary)
    )
    rows = [
        (str(model), float(ks_attention), float(ks_law))
        for model, ks_attention, ks_law in zip(
            summary["models"], summary["ks_to_attention"], summary["ks_to_nu_inf"], strict=True
        )
    ]
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(smk.output.caption, caption + "\n" + to_markdown(STEP_HEADER, rows))
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
