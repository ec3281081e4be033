"""Figure C5: pretrained diagnostics (PDF, PNG), the numbers plotted, and its caption (per-layer
numbers, the two-sample tests of the eigen-angle distances, their power, the verdicts)."""

from attnspec.dashboard import rows_of
from attnspec.experiments.pretrained_summary import (
    POWER_HEADER,
    TESTS_HEADER,
    figure_summary,
    layer_header,
    layer_rows,
    power_rows,
    tests_rows,
    tests_text,
)
from attnspec.io import configure_logging, load_npz, read_csv, write_figure_outputs
from attnspec.plotting.pretrained import plot_pretrained, pretrained_plotted_rows


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.pretrained
    controls = {name: load_npz(smk.input[f"control_{name}"]) for name in ("aligned", "local")}
    summary = figure_summary(
        load_npz(smk.input.model_full_rank),
        load_npz(smk.input.model_long),
        load_npz(smk.input.isotropic_full_rank),
        load_npz(smk.input.isotropic_long),
        top_k=cfg["top_k"],
        bins=cfg["histogram_bins"],
        controls=controls,
    )
    tests = load_npz(smk.input.tests)
    claims = read_csv(smk.input.claims)
    judged = [*rows_of(claims, "C.5/"), *rows_of(claims, "C.6/")]
    figure = plot_pretrained(
        summary,
        n_full=cfg["full_rank_passages"]["tokens"],
        n_long=cfg["long_passages"]["tokens"],
        top_k=cfg["top_k"],
        tests=tests,
        verdicts=judged,
    )
    sizes = {name: summary[f"distance/{name}"].size for name in ("model", "aligned", "local")}
    sizes["null"] = summary["distance/reference"].size // 2
    write_figure_outputs(
        smk,
        figure,
        ("panel", "series", "x", "y"),
        pretrained_plotted_rows(summary),
        tables=[
            (layer_header(cfg["top_k"]), layer_rows(summary, float(tests["reference_q95"]))),
            (TESTS_HEADER, tests_rows(tests, sizes)),
            (POWER_HEADER, power_rows(tests)),
        ],
        judged=judged,
        intro="\n\n" + tests_text(tests) + "\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
