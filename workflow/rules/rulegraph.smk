# The rule graph of target all as an image for the README, drawn with matplotlib (no graphviz).

import glob


rule rulegraph:
    """Reruns when the Snakefile, any rule file or the run's config changes."""
    input:
        snakefile="Snakefile",
        rules=sorted(glob.glob("workflow/rules/*.smk")),
        config="results/config.yaml",
    output:
        png="figures/rulegraph.png",
        pdf="figures/rulegraph.pdf",
    log:
        "logs/rulegraph.log",
    benchmark:
        "benchmarks/rulegraph.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(600),
    script:
        "../../scripts/rulegraph.py"
