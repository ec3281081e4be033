# Paper D's config sections, the files of its draws under a results root and their memory
# (functions used by paperD_draws.smk and paperD_figures.smk): one job per parameter point
# computes all its draws (attnspec.papers.d.multihead, each draw seeded on its own). Checked before
# any job (attnspec.papers.d.config_check): every point the claims registry judges is
# configured, and every sharing layer has whole widths.

from types import SimpleNamespace

from attnspec.papers.d.multihead import (
    draw_peak_mb,
    heads_shape,
    sharing_shape,
    sharing_size_step,
)
from attnspec.papers.d.public_models import public_model
from attnspec.papers.d.declared_tests import PUBLIC_MODELS as JUDGED_PUBLIC_MODELS

PUBLIC_MODELS_D = config["paperD"]["public_models"]
HEADS_D = config["paperD"]["heads"]
SHARING_D = config["paperD"]["sharing"]

PUBLIC_MODEL_PATTERN = "{results}/paperD/public-models/{model}/draws{draws}.npz"
HEADS_PATTERN = "{results}/paperD/heads/h{heads}/draws{draws}.npz"
SHARING_PATTERN = "{results}/paperD/sharing/{scheme}/n{n_tokens}/draws{draws}.npz"


def public_model_files(results, models=None):
    """The draws of each configured table D.2 model (or of ``models``) under a results root."""
    return [
        PUBLIC_MODEL_PATTERN.format(
            results=results, model=model, draws=PUBLIC_MODELS_D["draws"]
        )
        for model in (PUBLIC_MODELS_D["models"] if models is None else models)
    ]


def heads_files(results):
    """The draws of each head count of figure D2 under a results root."""
    return [
        HEADS_PATTERN.format(results=results, heads=heads, draws=HEADS_D["draws"])
        for heads in HEADS_D["head_counts"]
    ]


def sharing_files(results, sizes=None):
    """The draws of each (scheme, n) of figure D3 (or at ``sizes`` only) under a results root."""
    return [
        SHARING_PATTERN.format(
            results=results, scheme=scheme, n_tokens=n, draws=SHARING_D["draws"]
        )
        for scheme in SHARING_D["schemes"]
        for n in (SHARING_D["n_tokens"] if sizes is None else sizes)
    ]


def public_model_mem_mb(wildcards):
    """A job's arrays and interpreter, the floor and the mutants of rows D.1 included
    (attnspec.papers.d.multihead.draw_peak_mb)."""
    shape = public_model(wildcards.model).shape
    return job_mem_mb(draw_peak_mb(shape, int(wildcards.draws), floor=True))


def heads_mem_mb(wildcards):
    return job_mem_mb(
        max(
            draw_peak_mb(
                heads_shape(
                    stage,
                    HEADS_D["n_tokens"],
                    int(wildcards.heads),
                    HEADS_D["d_head"],
                    HEADS_D["d_out"],
                ),
                2 * int(wildcards.draws),
            )
            for stage in ("attention", "output")
        )
    )


def sharing_mem_mb(wildcards):
    shape = sharing_shape(
        wildcards.scheme,
        int(wildcards.n_tokens),
        SHARING_D["heads"],
        SHARING_D["kv_groups"],
        SHARING_D["gamma_k"],
        SHARING_D["gamma_o"],
    )
    return job_mem_mb(draw_peak_mb(shape, int(wildcards.draws)))


declare_memory(
    "paperD.heads.head_counts",
    HEADS_D["head_counts"],
    lambda h: heads_mem_mb(SimpleNamespace(heads=h, draws=HEADS_D["draws"])),
)
declare_memory(
    "paperD.sharing.n_tokens",
    SHARING_D["n_tokens"],
    lambda n: max(
        sharing_mem_mb(SimpleNamespace(scheme=s, n_tokens=n, draws=SHARING_D["draws"]))
        for s in SHARING_D["schemes"]
    ),
    step=sharing_size_step(
        SHARING_D["heads"], SHARING_D["gamma_k"], SHARING_D["gamma_o"]
    ),
)
