# Paper B, figures B4 (x_+ over (beta, c) and the square-model branches, claim B.4), B5 (finite
# deformed-MP edges of the conditional covariances, claim B.3), B6 (their spectra against rho)
# and table B-T2 (scalar against square-model edge formula, claim B.4), and the evidence of rows
# B.3 and B.4's identities. Conditional draws: per ell all in one job for ell <= BATCHED_UP_TO.


rule paperB_conditional_draw:
    """One draw of K at ell > BATCHED_UP_TO: the spectra of Sigma_f and Sigma_G and their
    finite deformed-MP edges E_ell."""
    output:
        "{results}/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.npz",
    log:
        "logs/{results}/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.log",
    benchmark:
        "benchmarks/{results}/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        d_qk=r"\d+",
        beta=r"\d+(\.\d+)?(e[+-]\d+)?",
        draw=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(conditional_mem_mb),
    params:
        store=config["store"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperB_conditional_draw.py"


rule paperB_conditional_batch:
    """Draws 0..draws-1 of K at one ell <= BATCHED_UP_TO in one job, each the same call (and
    the same numbers) as a single-draw job, stacked on a draw axis."""
    output:
        "{results}/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draws{draws}.npz",
    log:
        "logs/{results}/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draws{draws}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        d_qk=r"\d+",
        beta=r"\d+(\.\d+)?(e[+-]\d+)?",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(conditional_mem_mb),
    params:
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperB_conditional_batch.py"


rule paperB_conditional_evidence:
    """The evidence of rows B.3/Sigma_f and B.3/Sigma_G (attnspec.papers.b.declared_tests): samples,
    finite-size data at every ell and the same data under each declared alternative."""
    input:
        draws=lambda wildcards: conditional_files(wildcards.results),
    output:
        "{results}/paperB/evidence/conditional.npz",
    log:
        "logs/{results}/paperB/evidence/conditional.log",
    benchmark:
        "benchmarks/{results}/paperB/evidence/conditional.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="conditional",
        conditional=CONDITIONAL,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/evidence.py"


rule paperB_edge_formulas_evidence:
    """The values of rows B.4/square-model and B.4/r-transform (identities, theory only)."""
    output:
        "{results}/paperB/evidence/edge-formulas.npz",
    log:
        "logs/{results}/paperB/evidence/edge-formulas.log",
    benchmark:
        "benchmarks/{results}/paperB/evidence/edge-formulas.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(300)),
    params:
        output_name="edge-formulas",
        edges=EDGES,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/evidence.py"


rule paperB_B5_figure:
    """Figure B5: E_ell(Sigma_f) and E_ell(Sigma_G) against ell and x_+, drawn with seaborn
    from its tidy CSV; caption with the verdicts of rows B.3."""
    input:
        draws=conditional_files(RESULTS),
        claims=f"{RESULTS}/paperB/claims.csv",
        paper_scale=paper_scale_claims_of("B"),
        caption="workflow/report/paperB/B5-conditional-edges.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperB/B5-conditional-edges")),
    log:
        "logs/paperB/B5-figure.log",
    benchmark:
        "benchmarks/paperB/B5-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="B5-conditional-edges",
        conditional=CONDITIONAL,
    script:
        f"{SCRIPTS}/figure.py"


rule paperB_B6_figure:
    """Figure B6: the spectra of Sigma_f and Sigma_G against rho = a + b MP_c (seaborn
    histograms from its tidy CSV) and their largest eigenvalues in Tracy-Widom units."""
    input:
        draws=conditional_files(RESULTS),
        caption="workflow/report/paperB/B6-population.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperB/B6-population")),
    log:
        "logs/paperB/B6-figure.log",
    benchmark:
        "benchmarks/paperB/B6-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="B6-population",
        conditional=CONDITIONAL,
    script:
        f"{SCRIPTS}/figure.py"


rule paperB_B4_figure:
    """Figure B4: x_+ over (beta, c) from the scalar formula, the square-model branches and
    the simulated points at the largest ell, from its tidy CSV; rows B.4/c=<c>."""
    input:
        draws=sticking_files(RESULTS),
        claims=f"{RESULTS}/paperB/claims.csv",
        paper_scale=paper_scale_claims_of("B"),
        caption="workflow/report/paperB/B4-edge-formula.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperB/B4-edge-formula")),
    log:
        "logs/paperB/B4-figure.log",
    benchmark:
        "benchmarks/paperB/B4-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="B4-edge-formula",
        edges=EDGES,
        ratio_scan=RATIO_SCAN,
    script:
        f"{SCRIPTS}/figure.py"


rule paperB_BT2_table:
    """Table B-T2: the scalar edge formula against paper A's square-model formula at c = 1
    (theory), with the verdicts of the identity rows B.4 (CSV, Markdown, LaTeX)."""
    input:
        claims=f"{RESULTS}/paperB/claims.csv",
        paper_scale=paper_scale_claims_of("B"),
        caption="workflow/report/paperB/B-T2-edge-formulas.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **table_files(in_figures("paperB/B-T2-edge-formulas")),
    log:
        "logs/paperB/B-T2-table.log",
    benchmark:
        "benchmarks/paperB/B-T2-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="B-T2-edge-formulas",
        edges=EDGES,
    script:
        f"{SCRIPTS}/table.py"
