# Paper A, figures A3 (the bulk against nu_inf and the MP surrogate, claim A.4) and A7 (nu_inf
# across c = ell / d_qk). Spectra come from the generic rule paperA_spectrum_draw (paperA.smk).

BULK_LAWS = config["paperA"]["bulk_laws"]
RATIO_SWEEP = config["paperA"]["ratios"]
# A7 panels: one per c with d_qk = round(ell / c), then the literal-X case with
# d = round(ell / gamma) and c = 1.
RATIO_PANELS = [
    {
        "sampler": "gaussian",
        "d_qk": max(1, round(RATIO_SWEEP["n_tokens"] / c)),
        "d_model": None,
    }
    for c in RATIO_SWEEP["ratios"]
] + [
    {
        "sampler": "literal",
        "d_qk": RATIO_SWEEP["n_tokens"],
        "d_model": round(RATIO_SWEEP["n_tokens"] / RATIO_SWEEP["literal_gamma"]),
    }
]


rule paperA_A3_summary:
    input:
        attention=[
            path
            for beta in BULK_LAWS["betas"]
            for path in spectrum_files(
                "attention",
                BULK_LAWS["n_tokens"],
                BULK_LAWS["d_qk"],
                beta,
                BULK_LAWS["draws"],
            )
        ],
        linear=[
            path
            for beta in BULK_LAWS["betas"]
            for path in spectrum_files(
                "linear",
                BULK_LAWS["n_tokens"],
                BULK_LAWS["d_qk"],
                beta,
                BULK_LAWS["draws"],
            )
        ],
    output:
        "results/paperA/bulk_laws/summary.npz",
    log:
        "logs/paperA/bulk_laws/summary.log",
    benchmark:
        "benchmarks/paperA/bulk_laws/summary.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(500),
    params:
        bulk_laws=BULK_LAWS,
    script:
        "../../scripts/paperA_A3_summary.py"


rule paperA_A3_figure:
    input:
        summary="results/paperA/bulk_laws/summary.npz",
        caption="workflow/report/paperA/A3-bulk-laws.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperA/A3-bulk-laws.pdf",
        png=reported("figures/paperA/A3-bulk-laws.png"),
        plotted="figures/paperA/A3-bulk-laws.csv",
        caption="figures/paperA/A3-bulk-laws.md",
        claims="results/paperA/claims/A3-bulk-laws.csv",
    log:
        "logs/paperA/A3-figure.log",
    benchmark:
        "benchmarks/paperA/A3-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        bulk_laws=BULK_LAWS,
    script:
        "../../scripts/paperA_A3_figure.py"


rule paperA_A7_summary:
    input:
        [
            path
            for panel in RATIO_PANELS
            for path in spectrum_files(
                "attention",
                RATIO_SWEEP["n_tokens"],
                panel["d_qk"],
                RATIO_SWEEP["beta"],
                RATIO_SWEEP["draws"],
                panel["sampler"],
                panel["d_model"],
            )
        ],
    output:
        "results/paperA/ratios/summary.npz",
    log:
        "logs/paperA/ratios/summary.log",
    benchmark:
        "benchmarks/paperA/ratios/summary.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(500),
    params:
        ratios=RATIO_SWEEP,
        panels=RATIO_PANELS,
    script:
        "../../scripts/paperA_A7_summary.py"


rule paperA_A7_figure:
    input:
        summary="results/paperA/ratios/summary.npz",
        caption="workflow/report/paperA/A7-ratios.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperA/A7-ratios.pdf",
        png=reported("figures/paperA/A7-ratios.png"),
        plotted="figures/paperA/A7-ratios.csv",
        caption="figures/paperA/A7-ratios.md",
    log:
        "logs/paperA/A7-figure.log",
    benchmark:
        "benchmarks/paperA/A7-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        ratios=RATIO_SWEEP,
    script:
        "../../scripts/paperA_A7_figure.py"
