"""Figure A7, spectra: per panel (c = ell / d_qk, then literal X), the bulk against nu_inf."""

from attnspec.papers.a.bulk_laws_summary import pack_panels, summarise_ratio_panel
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.ratios
    draws = cfg["draws"]
    clock = Stopwatch()
    panels = []
    for i, (spec, path) in enumerate(zip(smk.params.panels, smk.input, strict=True)):
        panel = summarise_ratio_panel(
            list(load_npz(path)["attention"][:draws]),
            n_tokens=cfg["n_tokens"],
            d_qk=spec["d_qk"],
            beta=cfg["beta"],
            bins=cfg["histogram_bins"],
            sampler=spec["sampler"],
            d_model=spec["d_model"],
        )
        log.info(
            "panel %d of %d, %s sampler, ell = %d, d_qk = %d (c = %.4g, %d draws): "
            "KS to nu_inf %.4f, W1 %.4f, %.2f s",
            i + 1,
            len(smk.params.panels),
            spec["sampler"],
            cfg["n_tokens"],
            spec["d_qk"],
            panel["ratio"],
            draws,
            panel["ks"],
            panel["w1"],
            clock.lap(),
        )
        panels.append(panel)
    save_npz(smk.output[0], **pack_panels(panels))
    log.info("%d panels in %.2f s", len(panels), clock.total())


main(snakemake)  # noqa: F821
