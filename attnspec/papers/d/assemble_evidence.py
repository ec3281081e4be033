"""Paper D's evidence files, each assembled from its job's loaded inputs (named in
:mod:`attnspec.papers.d.outputs`; arguments: :mod:`attnspec.workflow.jobs`): the samples of
rows D.1-D.3; and the draws by configuration that figures D1, D3 and table D-T1 share."""

from attnspec.papers.d.multihead_evidence import (
    public_model_evidence,
    sharing_evidence,
    sharing_laws,
)


def public_model_records(inputs, params) -> dict:
    """The draws of each table D.2 configuration by the registry's model id (``params["models"]``,
    in the order of the ``draws`` inputs)."""
    return dict(zip(params["models"], inputs["draws"], strict=True))


def sharing_spectra(inputs, settings) -> dict:
    """The softmax spectra of the sharing draws by scheme and n (the ``draws`` inputs: every
    (scheme, n) of paperD.sharing, schemes outer, n inner)."""
    keys = [(scheme, n) for scheme in settings["schemes"] for n in settings["n_tokens"]]
    spectra = {}
    for (scheme, n), record in zip(keys, inputs["draws"], strict=True):
        spectra.setdefault(scheme, {})[n] = record["softmax"]
    return spectra


def evidence_from_public_models(inputs, params, judged) -> list:
    """Rows D.1/<model>/published-w1, published-ks (paper D's claim) and D.1/<model>/w1, ks
    (beyond the paper) from the draws at each judged table D.2 configuration."""
    evidence = []
    for model, record in public_model_records(inputs, params).items():
        evidence += public_model_evidence(model, record, params["beta"])
    return evidence


def evidence_from_sharing(inputs, params, judged) -> list:
    """Rows D.2/mqa, D.2/gqa and D.3/tied from the sharing draws, against the independent-head
    and tied limit laws."""
    settings = params["settings"]
    return sharing_evidence(sharing_spectra(inputs, settings), sharing_laws(settings))
