"""Figure C5: eigen-angle diagnostics of the pretrained model, drawn from its tidy table (PDF,
PNG, CSV), and its caption (per-layer distances, the two-sample tests of the eigen-angle
distances, their power, the verdicts of C.5 read from the claims table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.c.plot_pretrained import plot_eigen_angles
from attnspec.papers.c.pretrained_summary import (
    ANGLE_LAYER_HEADER,
    POWER_HEADER,
    TESTS_HEADER,
    angle_layer_rows,
    eigen_angle_plotted_table,
    power_rows,
    tests_rows,
    tests_text,
)
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.pretrained
    controls = {name: load_npz(smk.input[f"control_{name}"]) for name in ("aligned", "local")}
    tests = load_npz(smk.input.tests)
    tidy = eigen_angle_plotted_table(
        load_npz(smk.input.model_full_rank),
        load_npz(smk.input.model_long),
        load_npz(smk.input.isotropic_full_rank),
        load_npz(smk.input.isotropic_long),
        bins=cfg["histogram_bins"],
        controls=controls,
        reference_q95=float(tests["reference_q95"]),
    )
    frame = write_plotted(smk, tidy)
    judged = rows_of(read_csv(smk.input.claims), "C.5/")
    figure = plot_eigen_angles(
        frame,
        n_full=cfg["full_rank_passages"]["tokens"],
        n_long=cfg["long_passages"]["tokens"],
        bins=cfg["histogram_bins"],
    )
    distances = frame[(frame["kind"] == "data") & (frame["panel"] == "distances")]
    sizes = distances.groupby("series").size()
    sizes["null"] = sizes["reference"] // 2
    write_figure_outputs(
        smk,
        figure,
        tables=[
            (ANGLE_LAYER_HEADER, angle_layer_rows(frame)),
            (TESTS_HEADER, tests_rows(tests, sizes)),
            (POWER_HEADER, power_rows(tests)),
        ],
        judged=judged,
        intro="\n\n" + tests_text(tests) + "\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
