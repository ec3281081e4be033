"""Figure A7, spectra: per panel (c = ell / d_qk, then literal X), the bulk against nu_inf."""

from attnspec.experiments.bulk_laws import pack_panels, summarise_ratio_panel
from attnspec.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.ratios
    draws = cfg["draws"]
    panels = []
    for i, spec in enumerate(smk.params.panels):
        log.info(
            "panel %d of %d: %s, ell = %d", i + 1, len(smk.params.panels), spec, cfg["n_tokens"]
        )
        panel = summarise_ratio_panel(
            [
                load_npz(p)["squared_singular_values"]
                for p in smk.input[i * draws : (i + 1) * draws]
            ],
            n_tokens=cfg["n_tokens"],
            d_qk=spec["d_qk"],
            beta=cfg["beta"],
            bins=cfg["histogram_bins"],
            sampler=spec["sampler"],
            d_model=spec["d_model"],
        )
        log.info("c = %.4g: KS to nu_inf %.4f, W1 %.4f", panel["ratio"], panel["ks"], panel["w1"])
        panels.append(panel)
    save_npz(smk.output[0], **pack_panels(panels))


main(snakemake)  # noqa: F821
