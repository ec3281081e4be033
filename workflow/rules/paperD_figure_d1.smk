# Figure D4's rules (its settings, file names and memory: paperD_figure_d1_files.smk).


rule paperD_figure_d1:
    """All draws of one panel of figure D4 (paper D's figure D.1): per condition the n
    eigenvalues of MHA_perp MHA_perp^T and of n^-1 MHA^G MHA^G^T from the same weights; in panel
    (c) the independent and tied conditions from one draw (the same Q, K, W^O and noise).
    """
    output:
        FIGURE_D1_PATTERN,
    log:
        "logs/{results}/paperD/figure-d1/{panel}/draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperD/figure-d1/{panel}/draws{draws}.tsv"
    wildcard_constraints:
        panel="a|b|c",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(figure_d1_mem_mb),
    params:
        settings=FIGURE_D1,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperD_figure_d1.py"


rule paperD_D4_figure:
    """Figure D4: paper D's figure D.1 as published, softmax and Gaussian-equivalent spectra
    against the limit laws: heads at a fixed total width, two output widths, K/V sharing and
    tying."""
    input:
        draws=figure_d1_files(RESULTS),
        caption="workflow/report/paperD/D4-figure-d1.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperD/D4-figure-d1")),
    log:
        "logs/paperD/D4-figure.log",
    benchmark:
        "benchmarks/paperD/D4-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    params:
        output_name="D4-figure-d1",
        settings=FIGURE_D1,
    script:
        f"{SCRIPTS}/figure.py"
