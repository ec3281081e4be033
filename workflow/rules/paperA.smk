# Paper A (Gaussian equivalence, Hayase-Collins-Karakida): figures A1-A7, tables A-T1, A-T2.


rule paperA:
    input:
        expand(
            "figures/paperA/{figure}.{ext}",
            figure=PAPER_A_FIGURES,
            ext=["pdf", "png", "csv", "md"],
        ),
        expand(
            "figures/paperA/{table}.{ext}",
            table=PAPER_A_TABLES,
            ext=["csv", "md", "tex"],
        ),
        expand("figures/paperA/claims.{ext}", ext=["csv", "md"]),


rule paperA_spectrum_draw:
    output:
        SPECTRUM_PATTERN,
    log:
        "logs/paperA/spectra/{model}/ell{n_tokens}-dqk{d_qk}-beta{beta}-{sampler}/draw{draw}.log",
    benchmark:
        "benchmarks/paperA/spectra/{model}/ell{n_tokens}-dqk{d_qk}-beta{beta}-{sampler}/draw{draw}.tsv"
    wildcard_constraints:
        model="|".join(MODEL_NAMES),
        n_tokens=r"\d+",
        d_qk=r"\d+",
        beta=r"\d+\.\d+(e[+-]\d+)?",
        sampler=r"gaussian|literal-d\d+",
        draw=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=lambda wildcards: dense_job_mem_mb(wildcards.n_tokens, copies=6),
    script:
        "../../scripts/paperA_spectrum_draw.py"


rule paperA_stepwise_pool:
    input:
        stepwise_spectrum_files(),
    output:
        "results/paperA/stepwise/summary.npz",
    log:
        "logs/paperA/stepwise/pool.log",
    benchmark:
        "benchmarks/paperA/stepwise/pool.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(500),
    params:
        stepwise=STEPWISE,
        models=[m for m in MODEL_NAMES for _ in range(STEPWISE["draws"])],
    script:
        "../../scripts/paperA_stepwise_pool.py"


rule paperA_A1_figure:
    input:
        summary="results/paperA/stepwise/summary.npz",
        caption="workflow/report/paperA/A1-stepwise.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperA/A1-stepwise.pdf",
        png=reported("figures/paperA/A1-stepwise.png"),
        plotted="figures/paperA/A1-stepwise.csv",
        caption="figures/paperA/A1-stepwise.md",
    log:
        "logs/paperA/A1-figure.log",
    benchmark:
        "benchmarks/paperA/A1-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        stepwise=STEPWISE,
    script:
        "../../scripts/paperA_A1_figure.py"
