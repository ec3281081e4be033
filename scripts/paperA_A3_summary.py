"""Figure A3, spectra: per beta, the attention bulk and Y_lin against nu_inf and MP, and the
shares of the bulk above 4 theta1 at beta and at the wrong betas of the A.4 alternatives."""

import numpy as np

from attnspec.papers.a.bulk_laws_summary import pack_panels, summarise_bulk_laws
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.bulk_laws
    draws = cfg["draws"]
    clock = Stopwatch()
    panels = []
    for i, (beta, attention, linear) in enumerate(
        zip(cfg["betas"], smk.input.attention, smk.input.linear, strict=True)
    ):
        panel = summarise_bulk_laws(
            list(load_npz(attention)["attention"][:draws]),
            list(load_npz(linear)["linear"][:draws]),
            beta=beta,
            ratio=cfg["n_tokens"] / cfg["d_qk"],
            bins=cfg["histogram_bins"],
        )
        log.info(
            "beta %d of %d, beta = %s (%d draws, ell = %d): mean share of the bulk above "
            "4 theta1 = %.4f (nu_inf %.4f, MP 0), %.2f s",
            i + 1,
            len(cfg["betas"]),
            beta,
            draws,
            cfg["n_tokens"],
            float(np.mean(panel["edge_mass_attention"])),
            float(panel["edge_mass_theory"]),
            clock.lap(),
        )
        panels.append(panel)
    save_npz(smk.output[0], **pack_panels(panels))
    log.info("%d betas in %.2f s", len(panels), clock.total())


main(snakemake)  # noqa: F821
