# Rules shared by the papers: the per-paper claims tables and the snapshot of the run's config.


rule claims_table:
    input:
        lambda wildcards: expand(
            "results/paper{paper}/claims/{source}.csv",
            paper=wildcards.paper,
            source=CLAIM_SOURCES[wildcards.paper],
        ),
    output:
        csv="figures/paper{paper}/claims.csv",
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
        mem_mb=300,
    script:
        "../../scripts/claims_table.py"


rule config_snapshot:
    """The validated config of this run. Theory-only tables depend on it, so that a fresh clone
    recomputes them even though their committed copies exist (results/ is never committed).
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
        mem_mb=200,
    params:
        config=config,
    script:
        "../../scripts/config_snapshot.py"
