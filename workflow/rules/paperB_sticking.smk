# Paper B, figures B1 (ell s_k(A)^2 -> x_+, claim B.1), B2 (relative gap, rate, spikes and
# localisation), B3 (uniform sticking, claim B.2), B4's simulated points and table B-T1, from the
# sticking draws: per (ell, c) all draws in one job for ell <= BATCHED_UP_TO (a few seconds
# each), else one job per draw; every job serves every beta with the same scores S. The evidence
# of rows B.1, B.2 and B.4/c=<c> comes from the same draws.


rule paperB_sticking_draw:
    """One draw at (ell, c), ell > BATCHED_UP_TO: ell s_k(A)^2, s_k(Y_lin)^2, theta_max and
    the IPRs of the top singular vectors for every beta, from the same scores."""
    output:
        "{results}/paperB/sticking/ell{n_tokens}-c{ratio}/draw{draw}.npz",
    log:
        "logs/{results}/paperB/sticking/ell{n_tokens}-c{ratio}/draw{draw}.log",
    benchmark:
        "benchmarks/{results}/paperB/sticking/ell{n_tokens}-c{ratio}/draw{draw}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        ratio=r"\d+\.\d+(e[+-]\d+)?",
        draw=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(sticking_mem_mb),
    params:
        job=sticking_job,
        replicate=lambda wildcards: replicate_of(wildcards.results),
        store=config["store"],
    script:
        f"{SCRIPTS}/paperB_sticking_draw.py"


rule paperB_sticking_batch:
    """Draws 0..draws-1 at one (ell, c), ell <= BATCHED_UP_TO, in one job: each the same call
    (and the same numbers) as a single-draw job, stacked on a draw axis."""
    output:
        "{results}/paperB/sticking/ell{n_tokens}-c{ratio}/draws{draws}.npz",
    log:
        "logs/{results}/paperB/sticking/ell{n_tokens}-c{ratio}/draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperB/sticking/ell{n_tokens}-c{ratio}/draws{draws}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        ratio=r"\d+\.\d+(e[+-]\d+)?",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(sticking_mem_mb),
    params:
        job=sticking_job,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperB_sticking_batch.py"


rule paperB_sticking_evidence:
    """The evidence of rows B.1, B.2 and B.4/c=<c> (attnspec.papers.b.declared_tests) from the
    sticking draws: samples, finite-size data at every ell, the data under each alternative.
    """
    input:
        draws=lambda wildcards: sticking_files(wildcards.results),
    output:
        "{results}/paperB/evidence/sticking.npz",
    log:
        "logs/{results}/paperB/evidence/sticking.log",
    benchmark:
        "benchmarks/{results}/paperB/evidence/sticking.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="sticking",
        sticking=STICKING,
        ratio_scan=RATIO_SCAN,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/evidence.py"


rule paperB_B1_figure:
    """Figure B1: ell s_k(A)^2 against ell per (c, beta) with Y_lin and x_+, drawn with
    seaborn from its tidy CSV; caption with the verdicts of rows B.1."""
    input:
        draws=sticking_files(RESULTS),
        claims=f"{RESULTS}/paperB/claims.csv",
        paper_scale=paper_scale_claims_of("B"),
        caption="workflow/report/paperB/B1-sticking.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperB/B1-sticking")),
    log:
        "logs/paperB/B1-figure.log",
    benchmark:
        "benchmarks/paperB/B1-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="B1-sticking",
    script:
        f"{SCRIPTS}/figure.py"


rule paperB_B2_figure:
    """Figure B2 (c = 1): the relative gap of ell s_2(A)^2 and its rate, the spike prediction
    per draw and the localisation of the top singular vectors, from its tidy CSV."""
    input:
        draws=sticking_files(RESULTS, 1.0),
        claims=f"{RESULTS}/paperB/claims.csv",
        paper_scale=paper_scale_claims_of("B"),
        caption="workflow/report/paperB/B2-gap.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperB/B2-gap")),
    log:
        "logs/paperB/B2-figure.log",
    benchmark:
        "benchmarks/paperB/B2-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="B2-gap",
    script:
        f"{SCRIPTS}/figure.py"


rule paperB_B3_figure:
    """Figure B3 (c = 1): uniform sticking D over three schedules k_ell against its classical
    value, drawn with seaborn from its tidy CSV; the verdicts of rows B.2."""
    input:
        draws=sticking_files(RESULTS, 1.0),
        claims=f"{RESULTS}/paperB/claims.csv",
        paper_scale=paper_scale_claims_of("B"),
        caption="workflow/report/paperB/B3-uniform.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperB/B3-uniform")),
    log:
        "logs/paperB/B3-figure.log",
    benchmark:
        "benchmarks/paperB/B3-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="B3-uniform",
    script:
        f"{SCRIPTS}/figure.py"


rule paperB_BT1_table:
    """Table B-T1: ell s_k(A)^2 per (ell, c, beta, k), median and 10-90 % quantiles over
    draws, against x_+ (CSV, Markdown, LaTeX)."""
    input:
        draws=sticking_files(RESULTS),
        caption="workflow/report/paperB/B-T1-sticking.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **table_files(in_figures("paperB/B-T1-sticking")),
    log:
        "logs/paperB/B-T1-table.log",
    benchmark:
        "benchmarks/paperB/B-T1-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="B-T1-sticking",
    script:
        f"{SCRIPTS}/table.py"


rule paperB_B7_figure:
    """Figure B7 (c = 1): where sticking becomes visible, the critical size ell*(beta) of the
    largest entry theta_max against 1/G* with the sticking grids of this preset and of the
    paper preset, and theta_max per draw against its model, from its tidy CSV."""
    input:
        draws=sticking_files(RESULTS, 1.0),
        stored=stored_sticking_files(1.0),
        paper_preset=PAPER_PRESET,
        caption="workflow/report/paperB/B7-visibility.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperB/B7-visibility")),
    log:
        "logs/paperB/B7-figure.log",
    benchmark:
        "benchmarks/paperB/B7-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="B7-visibility",
        sticking=STICKING,
        ratio_scan=RATIO_SCAN,
        paper_sticking=paper_preset()["paperB"]["sticking"],
    script:
        f"{SCRIPTS}/figure.py"
