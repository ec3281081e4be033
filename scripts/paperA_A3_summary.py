"""Figure A3, spectra: per beta, the attention bulk and Y_lin against nu_inf and MP."""

from attnspec.experiments.bulk_laws import bulk_law_separation, pack_panels, summarise_bulk_laws
from attnspec.experiments.progress import Stopwatch
from attnspec.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.bulk_laws
    draws = cfg["draws"]
    clock = Stopwatch()
    panels = []
    for i, beta in enumerate(cfg["betas"]):
        chunk = slice(i * draws, (i + 1) * draws)
        panel = summarise_bulk_laws(
            [load_npz(p)["squared_singular_values"] for p in smk.input.attention[chunk]],
            [load_npz(p)["squared_singular_values"] for p in smk.input.linear[chunk]],
            beta=beta,
            ratio=cfg["n_tokens"] / cfg["d_qk"],
            bins=cfg["histogram_bins"],
        )
        test = bulk_law_separation(panel)
        log.info(
            "beta %d of %d, beta = %s (%d draws, ell = %d): KS(bulk, MP) - KS(bulk, nu_inf) = "
            "%.4f (tolerance %.4f): %s, %.2f s",
            i + 1,
            len(cfg["betas"]),
            beta,
            draws,
            cfg["n_tokens"],
            test.separation,
            test.tolerance,
            test.status,
            clock.lap(),
        )
        panels.append(panel)
    save_npz(smk.output[0], **pack_panels(panels))
    log.info("%d betas in %.2f s", len(panels), clock.total())


main(snakemake)  # noqa: F821
