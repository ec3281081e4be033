"""Rows D.2/mqa, D.2/gqa and D.3/tied: their evidence (attnspec.papers.d.declared_tests) from the
sharing draws of one results root, against the independent-head and tied limit laws.

Inputs: the draws of every (scheme, n) of paperD.sharing, schemes outer, n inner. Params:
settings (paperD.sharing), replicate.
"""

from attnspec.papers.d.evidence import sharing_evidence, sharing_laws
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    settings = smk.params.settings
    keys = [(scheme, n) for scheme in settings["schemes"] for n in settings["n_tokens"]]
    spectra = {}
    for (scheme, n), path in zip(keys, smk.input.draws, strict=True):
        spectra.setdefault(scheme, {})[n] = load_npz(path)["softmax"]
    laws = sharing_laws(settings)
    evidence = sharing_evidence(spectra, laws)
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s (replicate %d): %s", item.row_id, smk.params.replicate, item.note)


main(snakemake)  # noqa: F821
