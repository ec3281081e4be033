"""Table A-T2, distances: attention against Y_lin draws of other seeds (as drawn, and carried to
each wrong law of row A.3 by the quantile map), and Y_lin against Y_lin, at every ell of
paperA.linearisation (beta = 1)."""

from attnspec.papers.a.gaussian_equivalence_summary import pair_distance_table
from attnspec.workflow.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    draws = smk.params.draws
    spectra = {
        int(ell): (
            list(load_npz(attention)["attention"][:draws]),
            list(load_npz(linear)["linear"][:draws]),
        )
        for ell, attention, linear in zip(
            smk.params.n_tokens, smk.input.attention, smk.input.linear, strict=True
        )
    }
    table = pair_distance_table(spectra, beta=smk.params.beta)
    save_npz(smk.output[0], **table)
    log.info("pair distances at ell = %s", ", ".join(str(n) for n in table["n_tokens"]))


main(snakemake)  # noqa: F821
