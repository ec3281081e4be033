"""Figure C5: pretrained diagnostics (PDF, PNG), the numbers plotted, and its caption."""

from attnspec.experiments.pretrained import HAAR, reference_quantiles
from attnspec.experiments.pretrained_summary import figure_summary, layer_header, layer_rows
from attnspec.io import configure_logging, load_npz, write_figure_outputs
from attnspec.plotting.pretrained import plot_pretrained, pretrained_plotted_rows


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.pretrained
    iso_full_rank = load_npz(smk.input.isotropic_full_rank)
    summary = figure_summary(
        load_npz(smk.input.model_full_rank),
        load_npz(smk.input.model_long),
        iso_full_rank,
        load_npz(smk.input.isotropic_long),
        top_k=cfg["top_k"],
        bins=cfg["histogram_bins"],
    )
    q95 = reference_quantiles(iso_full_rank["angle_distance"][..., HAAR])[1]
    figure = plot_pretrained(
        summary,
        n_full=cfg["full_rank_passages"]["tokens"],
        n_long=cfg["long_passages"]["tokens"],
        top_k=cfg["top_k"],
        q95=q95,
    )
    write_figure_outputs(
        smk,
        figure,
        ("panel", "series", "x", "y"),
        pretrained_plotted_rows(summary),
        tables=[(layer_header(cfg["top_k"]), layer_rows(summary, q95))],
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
