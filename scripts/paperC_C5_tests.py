"""Figure C5, table C-T2 and the C.5 evidence: two-sample tests of the per-head eigen-angle
distances against the Haar reference, their power, and the share above the Haar 95 % quantile."""

from attnspec.papers.c.pretrained_evidence import eigen_angle_tests
from attnspec.workflow.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    tests = eigen_angle_tests(
        load_npz(smk.input.model),
        load_npz(smk.input.reference),
        load_npz(smk.input.aligned),
        load_npz(smk.input.local),
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **tests)
    for name in ("model", "aligned", "local", "null"):
        log.info(
            "%s against Haar: KS %.4f (p %.3g), Mann-Whitney p %.3g",
            name,
            float(tests[f"{name}/ks"]),
            float(tests[f"{name}/ks_p"]),
            float(tests[f"{name}/mw_p"]),
        )


main(snakemake)  # noqa: F821
