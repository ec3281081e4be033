# Paper B, figures B1 (ell s_k(A)^2 -> x_+, claim B.1), B2 (relative gap, rate, spikes and
# localisation), B3 (uniform sticking, claim B.2) and table B-T1, from one simulation job per
# (ell, c, draw) that serves every beta with the same scores S.

from attnspec.experiments.sticking import job_memory_copies, sticking_jobs

STICKING = config["paperB"]["sticking"]
RATIO_SCAN = config["paperB"]["ratio_scan"]
STICKING_JOBS = sticking_jobs(STICKING, RATIO_SCAN)
STICKING_PATTERN = "results/paperB/sticking/ell{n_tokens}-c{ratio}/draw{draw}.npz"
# The c = 1 draws (B2, B3) and those plus the ratio-scan draws (B1, B-T1; a c = 1 ratio-scan
# point shares the c = 1 files).
STICKING_FILES = [
    STICKING_PATTERN.format(n_tokens=ell, ratio=repr(1.0), draw=draw)
    for ell in STICKING["n_tokens"]
    for draw in range(STICKING["draws"])
]
RATIO_SCAN_FILES = [
    STICKING_PATTERN.format(n_tokens=ell, ratio=repr(float(c)), draw=draw)
    for c in RATIO_SCAN["ratios"]
    for ell in RATIO_SCAN["n_tokens"]
    for draw in range(RATIO_SCAN["draws"])
]
ALL_STICKING_FILES = list(dict.fromkeys(STICKING_FILES + RATIO_SCAN_FILES))


rule paperB_sticking_draw:
    output:
        STICKING_PATTERN,
    log:
        "logs/paperB/sticking/ell{n_tokens}-c{ratio}/draw{draw}.log",
    benchmark:
        "benchmarks/paperB/sticking/ell{n_tokens}-c{ratio}/draw{draw}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        ratio=r"\d+\.\d+(e[+-]\d+)?",
        draw=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=lambda wildcards: dense_job_mem_mb(
            wildcards.n_tokens, copies=job_memory_copies(float(wildcards.ratio))
        ),
    params:
        job=lambda wildcards: STICKING_JOBS[
            (int(wildcards.n_tokens), float(wildcards.ratio))
        ]._asdict(),
    script:
        "../../scripts/paperB_sticking_draw.py"


rule paperB_B1_figure:
    input:
        draws=ALL_STICKING_FILES,
        caption="workflow/report/paperB/B1-sticking.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperB/B1-sticking.pdf",
        png=reported("figures/paperB/B1-sticking.png"),
        plotted="figures/paperB/B1-sticking.csv",
        caption="figures/paperB/B1-sticking.md",
        claims="results/paperB/claims/B1-sticking.csv",
    log:
        "logs/paperB/B1-figure.log",
    benchmark:
        "benchmarks/paperB/B1-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    script:
        "../../scripts/paperB_B1_figure.py"


rule paperB_B2_figure:
    input:
        draws=STICKING_FILES,
        caption="workflow/report/paperB/B2-gap.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperB/B2-gap.pdf",
        png=reported("figures/paperB/B2-gap.png"),
        plotted="figures/paperB/B2-gap.csv",
        caption="figures/paperB/B2-gap.md",
    log:
        "logs/paperB/B2-figure.log",
    benchmark:
        "benchmarks/paperB/B2-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    script:
        "../../scripts/paperB_B2_figure.py"


rule paperB_B3_figure:
    input:
        draws=STICKING_FILES,
        caption="workflow/report/paperB/B3-uniform.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperB/B3-uniform.pdf",
        png=reported("figures/paperB/B3-uniform.png"),
        plotted="figures/paperB/B3-uniform.csv",
        caption="figures/paperB/B3-uniform.md",
        claims="results/paperB/claims/B3-uniform.csv",
    log:
        "logs/paperB/B3-figure.log",
    benchmark:
        "benchmarks/paperB/B3-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    script:
        "../../scripts/paperB_B3_figure.py"


rule paperB_BT1_table:
    input:
        draws=ALL_STICKING_FILES,
        caption="workflow/report/paperB/B-T1-sticking.rst",
        config="results/config.yaml",
    output:
        csv=reported("figures/paperB/B-T1-sticking.csv"),
        md="figures/paperB/B-T1-sticking.md",
        tex="figures/paperB/B-T1-sticking.tex",
    log:
        "logs/paperB/B-T1-table.log",
    benchmark:
        "benchmarks/paperB/B-T1-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(400),
    script:
        "../../scripts/paperB_BT1_table.py"
