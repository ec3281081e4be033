"""Figure C7: stable rank of the pretrained model's attention against the passage length n (both
masks, the same scores), drawn from its tidy table (PDF, PNG, CSV), and its caption (the slopes
on log n with their bootstrap intervals and the references' slopes)."""

from attnspec.papers.c.plot_pretrained_stable_rank import plot_pretrained_stable_rank
from attnspec.papers.c.pretrained_stable_rank_summary import (
    SLOPE_HEADER,
    slope_rows,
    stable_rank_plotted_table,
)
from attnspec.pretrained.loader import FINE_TUNED_TOKENS, HEAD_WIDTH
from attnspec.workflow.io import configure_logging, load_npz, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.lengths
    lengths = {
        int(n): load_npz(path) for n, path in zip(cfg["tokens"], smk.input.lengths, strict=True)
    }
    tidy = stable_rank_plotted_table(lengths, HEAD_WIDTH, cfg["bootstrap_resamples"])
    frame = write_plotted(smk, tidy)
    figure = plot_pretrained_stable_rank(
        frame, fine_tuned_tokens=FINE_TUNED_TOKENS, head_width=HEAD_WIDTH
    )
    write_figure_outputs(smk, figure, tables=[(SLOPE_HEADER, slope_rows(frame))], intro="\n")
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
