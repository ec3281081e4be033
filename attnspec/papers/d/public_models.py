"""Paper D's table D.2: multi-head layers at the dimensions of public models, and its numbers.

Appendix D.1 of Hayase & Karakida (arXiv 2610.10033): beta = 1, d_O = d, d_K = d_V, fan-in
Gaussian weights, ten initialisations; softmax against its same-weights Gaussian equivalent by
the relative W1 and KS of all n eigenvalues (:mod:`attnspec.multihead.metrics`). The published
values are means over the paper's ten draws with their Student-t 95 % half-widths (relative W1
in per cent). Ids are those of the claims registry
(``attnspec.papers.d.declared_tests.PUBLIC_MODELS``).
"""

from dataclasses import dataclass

from attnspec.multihead.shapes import MultiHeadShape


@dataclass(frozen=True)
class PublicModel:
    """One configuration of table D.2 and its published comparison (appendix D.1).

    ``sharing`` is the table's column: "none", "MQA" (h_KV = 1) or "K=V" (W_r^V = W_r^K).
    ``published_w1``/``published_ks`` are (mean, Student-t 95 % half-width); W1 in per cent.
    """

    model_id: str
    name: str
    sharing: str
    n_tokens: int
    d_model: int
    heads: int
    kv_heads: int
    d_head: int
    published_w1: tuple[float, float]
    published_ks: tuple[float, float]

    @property
    def shape(self) -> MultiHeadShape:
        """The layer: d_K = d_V = d_head, d_O = d, h_KV K/V groups, tied when K = V."""
        return MultiHeadShape(
            self.n_tokens,
            self.d_model,
            self.heads,
            self.d_head,
            self.d_head,
            self.d_model,
            kv_heads=self.kv_heads,
            tied=self.sharing == "K=V",
        )


TABLE_D2_MODELS = {
    model.model_id: model
    for model in (
        PublicModel("dinov3-l16", "DINOv3-L/16", "none", 261, 1024, 16, 16, 64, (2.82, 0.40),
                    (0.0280, 0.0018)),
        PublicModel("bert-base", "BERT-base", "none", 512, 768, 12, 12, 64, (1.66, 0.23),
                    (0.0109, 0.0010)),
        PublicModel("modernbert-large", "ModernBERT-large", "none", 1024, 1024, 16, 16, 64,
                    (1.37, 0.21), (0.0052, 0.0005)),
        PublicModel("kayyam-1.2b", "Kayyam 1.2B", "K=V", 2048, 2048, 32, 32, 64, (0.24, 0.01),
                    (0.0020, 0.0001)),
        PublicModel("falcon-7b", "Falcon-7B", "MQA", 2048, 4544, 71, 1, 64, (1.92, 0.46),
                    (0.0061, 0.0012)),
        PublicModel("llada-8b", "LLaDA-8B", "none", 4096, 4096, 32, 32, 128, (0.92, 0.06),
                    (0.0022, 0.0001)),
        PublicModel("gpt3-175b", "GPT-3 175B", "none", 2048, 12288, 96, 96, 128, (0.62, 0.07),
                    (0.0040, 0.0004)),
    )
}  # fmt: skip
"""Table D.2's seven configurations by registry id, in the order of the default preset."""


def public_model(model_id: str) -> PublicModel:
    """The table D.2 configuration ``model_id``; ValueError naming the known ids otherwise."""
    try:
        return TABLE_D2_MODELS[model_id]
    except (KeyError, TypeError):
        raise ValueError(
            f"model must be one of {', '.join(TABLE_D2_MODELS)} (table D.2), got {model_id!r}"
        ) from None
