# Paper B, figures B4 (x_+ over (beta, c) and the square-model branches), B5 (finite
# deformed-MP edges of the conditional covariances, claim B.3), B6 (their spectra against rho)
# and table B-T2 (scalar against square-model edge formula, claim B.4).

from attnspec.experiments.conditional import key_dimension

EDGES = config["paperB"]["edges"]
CONDITIONAL = config["paperB"]["conditional"]
CONDITIONAL_PATTERN = (
    "results/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.npz"
)
# Every conditional draw, ell-major then draw, as the B5 and B6 scripts read them.
CONDITIONAL_FILES = [
    CONDITIONAL_PATTERN.format(
        n_tokens=n_tokens,
        d_qk=key_dimension(n_tokens, CONDITIONAL["ratio"]),
        beta=repr(float(CONDITIONAL["beta"])),
        draw=draw,
    )
    for n_tokens in CONDITIONAL["n_tokens"]
    for draw in range(CONDITIONAL["draws"])
]


rule paperB_conditional_draw:
    output:
        CONDITIONAL_PATTERN,
    log:
        "logs/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.log",
    benchmark:
        "benchmarks/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        d_qk=r"\d+",
        beta=r"\d+\.\d+(e[+-]\d+)?",
        draw=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=lambda wildcards: dense_job_mem_mb(wildcards.n_tokens, copies=3),
    script:
        "../../scripts/paperB_conditional_draw.py"


rule paperB_B5_figure:
    input:
        draws=CONDITIONAL_FILES,
        caption="workflow/report/paperB/B5-conditional-edges.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperB/B5-conditional-edges.pdf",
        png=reported("figures/paperB/B5-conditional-edges.png"),
        plotted="figures/paperB/B5-conditional-edges.csv",
        caption="figures/paperB/B5-conditional-edges.md",
        claims="results/paperB/claims/B5-conditional-edges.csv",
    log:
        "logs/paperB/B5-figure.log",
    benchmark:
        "benchmarks/paperB/B5-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        conditional=CONDITIONAL,
    script:
        "../../scripts/paperB_B5_figure.py"


rule paperB_B6_figure:
    input:
        draws=CONDITIONAL_FILES,
        caption="workflow/report/paperB/B6-population.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperB/B6-population.pdf",
        png=reported("figures/paperB/B6-population.png"),
        plotted="figures/paperB/B6-population.csv",
        caption="figures/paperB/B6-population.md",
    log:
        "logs/paperB/B6-figure.log",
    benchmark:
        "benchmarks/paperB/B6-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        conditional=CONDITIONAL,
    script:
        "../../scripts/paperB_B6_figure.py"


rule paperB_B4_figure:
    input:
        sticking="figures/paperB/B-T1-sticking.csv",
        caption="workflow/report/paperB/B4-edge-formula.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperB/B4-edge-formula.pdf",
        png=reported("figures/paperB/B4-edge-formula.png"),
        plotted="figures/paperB/B4-edge-formula.csv",
        caption="figures/paperB/B4-edge-formula.md",
    log:
        "logs/paperB/B4-figure.log",
    benchmark:
        "benchmarks/paperB/B4-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        edges=EDGES,
    script:
        "../../scripts/paperB_B4_figure.py"


rule paperB_BT2_table:
    input:
        caption="workflow/report/paperB/B-T2-edge-formulas.rst",
        config="results/config.yaml",
    output:
        csv=reported("figures/paperB/B-T2-edge-formulas.csv"),
        md="figures/paperB/B-T2-edge-formulas.md",
        tex="figures/paperB/B-T2-edge-formulas.tex",
        claims="results/paperB/claims/B-T2-edge-formulas.csv",
    log:
        "logs/paperB/B-T2-table.log",
    benchmark:
        "benchmarks/paperB/B-T2-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(400),
    params:
        edges=EDGES,
    script:
        "../../scripts/paperB_BT2_table.py"
