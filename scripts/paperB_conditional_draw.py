"""Figures B5 and B6, simulate: spectra of Sigma_f and Sigma_G given one draw of K, and E_ell.

Wildcards: n_tokens, d_qk, beta, draw.
"""

from attnspec.experiments.conditional import conditional_draw
from attnspec.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    wildcards = smk.wildcards
    result = conditional_draw(
        int(wildcards.n_tokens), int(wildcards.d_qk), float(wildcards.beta), int(wildcards.draw)
    )
    save_npz(smk.output[0], **result)
    log.info(
        "E_ell(Sigma_f) = %.8g, E_ell(Sigma_G) = %.8g",
        result["edge_sigma_f"],
        result["edge_sigma_g"],
    )


main(snakemake)  # noqa: F821
