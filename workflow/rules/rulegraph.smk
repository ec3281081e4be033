# The rule graph of target all in Mermaid, for the README (rendered natively by code hosts).

import glob


rule rulegraph:
    """The rule graph of target all (figures/rulegraph.mmd) from Snakemake's own
    --rulegraph mermaid-js; reruns when a Snakefile, a rule file or the run's config changes.
    """
    input:
        snakefiles=[
            "Snakefile",
            *sorted(glob.glob("workflow/rules/*.smk")),
        ],
        config=CONFIG_SNAPSHOT,
    output:
        committed(in_figures("rulegraph.mmd")),
        published=receipt(in_figures("rulegraph")),
    log:
        "logs/rulegraph.log",
    benchmark:
        "benchmarks/rulegraph.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    script:
        f"{SCRIPTS}/rulegraph.py"
