# Paper C, figure C5 and table C-T2: diagnostics of the pretrained all-MiniLM-L6-v2 (claims C.5,
# C.6). Model -> per-passage Q, K (its own env) -> per-head diagnostics; an isotropic Gaussian
# reference of the same shape -> the same diagnostics; both -> figure, table and verdict rows.

from attnspec.pretrained.loader import HEAD_WIDTH

PRETRAINED = config["paperC"]["pretrained"]
PRETRAINED_QUERIES_KEYS = (
    "results/paperC/pretrained/queries-keys-n{tokens}-p{passages}.npz"
)
PRETRAINED_MODEL = "results/paperC/pretrained/minilm-n{tokens}-p{passages}.npz"
PRETRAINED_ISOTROPIC = (
    "results/paperC/pretrained/isotropic-n{tokens}-d{width}-r{draws}.npz"
)
# The four diagnostics files of figure C5 and table C-T2, by source and passage length.
PRETRAINED_DIAGNOSTICS = {
    f"{source}_{length}": pattern.format(
        tokens=PRETRAINED[f"{length}_passages"]["tokens"],
        passages=PRETRAINED[f"{length}_passages"]["count"],
        width=HEAD_WIDTH,
        draws=PRETRAINED["reference_draws"],
    )
    for length in ("full_rank", "long")
    for source, pattern in (
        ("model", PRETRAINED_MODEL),
        ("isotropic", PRETRAINED_ISOTROPIC),
    )
}


rule paperC_pretrained_queries_keys:
    input:
        corpus=PRETRAINED["corpus"],
    output:
        PRETRAINED_QUERIES_KEYS,
    log:
        "logs/paperC/pretrained/queries-keys-n{tokens}-p{passages}.log",
    benchmark:
        "benchmarks/paperC/pretrained/queries-keys-n{tokens}-p{passages}.tsv"
    wildcard_constraints:
        tokens=r"\d+",
        passages=r"\d+",
    conda:
        "../envs/pretrained.yaml"
    threads: 1
    resources:
        # weights in float64 (~200 MB) + Q, K (passages x 72 heads x n x 32 x 2 doubles)
        mem_mb=lambda wildcards: job_mem_mb(
            600 + int(wildcards.passages) * int(wildcards.tokens) // 20
        ),
    script:
        "../../scripts/paperC_C5_queries_keys.py"


rule paperC_pretrained_model_diagnostics:
    input:
        PRETRAINED_QUERIES_KEYS,
    output:
        PRETRAINED_MODEL,
    log:
        "logs/paperC/pretrained/minilm-n{tokens}-p{passages}.log",
    benchmark:
        "benchmarks/paperC/pretrained/minilm-n{tokens}-p{passages}.tsv"
    wildcard_constraints:
        tokens=r"\d+",
        passages=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        # Q, K plus the eigen-angles (passages x 72 heads x 4 x n doubles)
        mem_mb=lambda wildcards: job_mem_mb(
            300 + int(wildcards.passages) * int(wildcards.tokens) // 10
        ),
    script:
        "../../scripts/paperC_C5_model_diagnostics.py"


rule paperC_pretrained_isotropic_reference:
    output:
        PRETRAINED_ISOTROPIC,
    log:
        "logs/paperC/pretrained/isotropic-n{tokens}-d{width}-r{draws}.log",
    benchmark:
        "benchmarks/paperC/pretrained/isotropic-n{tokens}-d{width}-r{draws}.tsv"
    wildcard_constraints:
        tokens=r"\d+",
        width=r"\d+",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=lambda wildcards: job_mem_mb(
            300 + int(wildcards.draws) * int(wildcards.tokens) // 1000
        ),
    script:
        "../../scripts/paperC_C5_isotropic_reference.py"


rule paperC_C5_figure:
    input:
        **PRETRAINED_DIAGNOSTICS,
        caption="workflow/report/paperC/C5-pretrained.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperC/C5-pretrained.pdf",
        png=reported("figures/paperC/C5-pretrained.png"),
        plotted="figures/paperC/C5-pretrained.csv",
        caption="figures/paperC/C5-pretrained.md",
    log:
        "logs/paperC/C5-figure.log",
    benchmark:
        "benchmarks/paperC/C5-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        pretrained=PRETRAINED,
    script:
        "../../scripts/paperC_C5_figure.py"


rule paperC_CT2_table:
    input:
        **PRETRAINED_DIAGNOSTICS,
        caption="workflow/report/paperC/C-T2-pretrained.rst",
        config="results/config.yaml",
    output:
        csv=reported("figures/paperC/C-T2-pretrained.csv"),
        md="figures/paperC/C-T2-pretrained.md",
        tex="figures/paperC/C-T2-pretrained.tex",
        claims="results/paperC/claims/C-T2-pretrained.csv",
    log:
        "logs/paperC/C-T2-table.log",
    benchmark:
        "benchmarks/paperC/C-T2-table.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(600),
    params:
        pretrained=PRETRAINED,
    script:
        "../../scripts/paperC_CT2_table.py"
