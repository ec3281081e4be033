# Rules shared by the papers: the per-paper claims tables, the dashboard of all claims and the
# snapshot of the run's config.


rule claims_table:
    input:
        lambda wildcards: expand(
            "results/paper{paper}/claims/{source}.csv",
            paper=wildcards.paper,
            source=CLAIM_SOURCES[wildcards.paper],
        ),
    output:
        csv=report(
            "figures/paper{paper}/claims.csv",
            caption="../report/claims.rst",
            category=lambda wildcards: PAPER_CATEGORIES[wildcards.paper],
            subcategory="Claims",
        ),
        md="figures/paper{paper}/claims.md",
    log:
        "logs/paper{paper}/claims.log",
    benchmark:
        "benchmarks/paper{paper}/claims.tsv"
    wildcard_constraints:
        paper="[ABC]",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(300),
    script:
        "../../scripts/claims_table.py"


rule claims_dashboard:
    input:
        **{paper: f"figures/paper{paper}/claims.csv" for paper in PAPER_CATEGORIES},
    output:
        csv=report(
            "figures/claims.csv",
            caption="../report/dashboard.rst",
            category="Claims of the three papers",
            subcategory="Dashboard",
        ),
        md="figures/claims.md",
    log:
        "logs/claims_dashboard.log",
    benchmark:
        "benchmarks/claims_dashboard.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(300),
    script:
        "../../scripts/claims_dashboard.py"


rule config_snapshot:
    """The validated config of this run. Every figure and table depends on it, so that a fresh
    clone recomputes them all although their committed copies exist: results/ is never committed,
    and Snakemake does not rerun a job only because its intermediate inputs are missing.
    """
    output:
        "results/config.yaml",
    log:
        "logs/config_snapshot.log",
    benchmark:
        "benchmarks/config_snapshot.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(200),
    params:
        config=config,
    script:
        "../../scripts/config_snapshot.py"
