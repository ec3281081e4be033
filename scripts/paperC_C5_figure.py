"""Figure C5: pretrained diagnostics, drawn from its tidy table (PDF, PNG, CSV), and its caption
(per-layer numbers, the two-sample tests of the eigen-angle distances, their power, the verdicts
of C.5 and C.6 read from the claims table)."""

import pandas as pd

from attnspec.dashboard import rows_of
from attnspec.experiments.pretrained_summary import (
    PLOTTED_HEADER,
    POWER_HEADER,
    TESTS_HEADER,
    layer_header,
    layer_rows,
    plotted_rows,
    power_rows,
    tests_rows,
    tests_text,
)
from attnspec.io import configure_logging, load_npz, read_csv, write_figure_outputs
from attnspec.plotting.pretrained import plot_pretrained


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.pretrained
    controls = {name: load_npz(smk.input[f"control_{name}"]) for name in ("aligned", "local")}
    rows = list(
        plotted_rows(
            load_npz(smk.input.model_full_rank),
            load_npz(smk.input.model_long),
            load_npz(smk.input.isotropic_full_rank),
            load_npz(smk.input.isotropic_long),
            top_k=cfg["top_k"],
            bins=cfg["histogram_bins"],
            controls=controls,
        )
    )
    frame = pd.DataFrame(rows, columns=PLOTTED_HEADER)
    tests = load_npz(smk.input.tests)
    claims = read_csv(smk.input.claims)
    judged = [*rows_of(claims, "C.5/"), *rows_of(claims, "C.6/")]
    figure = plot_pretrained(
        frame,
        n_full=cfg["full_rank_passages"]["tokens"],
        n_long=cfg["long_passages"]["tokens"],
        top_k=cfg["top_k"],
        bins=cfg["histogram_bins"],
        tests=tests,
        verdicts=judged,
    )
    sizes = frame[frame["panel"] == "distances"].groupby("series").size()
    sizes["null"] = sizes["reference"] // 2
    write_figure_outputs(
        smk,
        figure,
        PLOTTED_HEADER,
        rows,
        tables=[
            (layer_header(cfg["top_k"]), layer_rows(frame, float(tests["reference_q95"]))),
            (TESTS_HEADER, tests_rows(tests, sizes)),
            (POWER_HEADER, power_rows(tests)),
        ],
        judged=judged,
        intro="\n\n" + tests_text(tests) + "\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
