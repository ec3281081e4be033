# Paper A tables A-T1 (edges over beta and c) and A-T2 (stepwise models, and the evidence of the
# row A.3/beta=1: pair distances between attention and Y_lin draws over the ell of figure A5).


rule paperA_AT1_table:
    """Table A-T1: x_+ against 4 theta_1 over the (beta, c) grid (theory only)."""
    input:
        caption="workflow/report/paperA/A-T1-edges.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **table_files(in_figures("paperA/A-T1-edges")),
    log:
        "logs/paperA/A-T1-table.log",
    benchmark:
        "benchmarks/paperA/A-T1-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="A-T1-edges",
        edge_table=config["paperA"]["edge_table"],
    script:
        f"{SCRIPTS}/table.py"


rule paperA_AT2_pairs:
    """Two-sample Kolmogorov distances between attention and Y_lin draws of other seeds (as
    drawn, and carried to each wrong law of row A.3 by the quantile map), and between Y_lin
    draws, at every ell of paperA.linearisation (beta = 1)."""
    input:
        attention=lambda wildcards: equivalence_spectra(wildcards.results, "attention"),
        linear=lambda wildcards: equivalence_spectra(wildcards.results, "linear"),
    output:
        "{results}/paperA/equivalence/pairs.npz",
    log:
        "logs/{results}/paperA/equivalence/pairs.log",
    benchmark:
        "benchmarks/{results}/paperA/equivalence/pairs.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(500)),
    params:
        n_tokens=LINEARISATION["n_tokens"],
        draws=LINEARISATION["draws"],
        beta=EQUIVALENCE_BETA,
    script:
        f"{SCRIPTS}/paperA_AT2_pairs.py"


rule paperA_AT2_evidence:
    """Evidence of the row A.3/beta=1."""
    input:
        pairs="{results}/paperA/equivalence/pairs.npz",
    output:
        "{results}/paperA/evidence/A-T2-stepwise.npz",
    log:
        "logs/{results}/paperA/evidence/A-T2-stepwise.log",
    benchmark:
        "benchmarks/{results}/paperA/evidence/A-T2-stepwise.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="A-T2-stepwise",
        beta=EQUIVALENCE_BETA,
    script:
        f"{SCRIPTS}/evidence.py"


rule paperA_AT2_table:
    """Table A-T2: moments and distances of the stepwise models, the A.3 pair distances by ell
    and the A.3 row."""
    input:
        summary=f"{RESULTS}/paperA/stepwise/summary.npz",
        pairs=f"{RESULTS}/paperA/equivalence/pairs.npz",
        claims=f"{RESULTS}/paperA/claims.csv",
        paper_scale=paper_scale_claims_of("A"),
        caption="workflow/report/paperA/A-T2-stepwise.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **table_files(in_figures("paperA/A-T2-stepwise")),
    log:
        "logs/paperA/A-T2-table.log",
    benchmark:
        "benchmarks/paperA/A-T2-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    params:
        output_name="A-T2-stepwise",
    script:
        f"{SCRIPTS}/table.py"
