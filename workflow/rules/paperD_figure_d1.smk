# Figure D4, paper D's own figure D.1 (appendix D.7): one job per panel computes all its draws
# (attnspec.papers.d.figure_d1, each draw seeded on its own), then the figure is drawn from its
# tidy table. Checked when the workflow is read: whole head widths in panel (a), a tied law the
# library solves in panel (c).

from attnspec.papers.d.figure_d1 import (
    PANELS as FIGURE_D1_PANELS,
    check_figure_d1_settings,
    panel_peak_mb,
)

FIGURE_D1 = config["paperD"]["figure_d1"]
try:
    check_figure_d1_settings(FIGURE_D1)
except ValueError as _error:
    raise ConfigError(str(_error)) from None

FIGURE_D1_PATTERN = "{results}/paperD/figure-d1/{panel}/draws{draws}.npz"


def figure_d1_files(results):
    """The draws of each panel of figure D4 under a results root."""
    return [
        FIGURE_D1_PATTERN.format(results=results, panel=panel, draws=FIGURE_D1["draws"])
        for panel in FIGURE_D1_PANELS
    ]


def figure_d1_mem_mb(wildcards):
    return job_mem_mb(panel_peak_mb(wildcards.panel, FIGURE_D1, int(wildcards.draws)))


declare_memory(
    "paperD.figure_d1.n_tokens",
    [FIGURE_D1["n_tokens"]],
    lambda n: max(
        job_mem_mb(
            panel_peak_mb(panel, {**FIGURE_D1, "n_tokens": n}, FIGURE_D1["draws"])
        )
        for panel in FIGURE_D1_PANELS
    ),
)


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
        "../../scripts/paperD_figure_d1.py"


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
        settings=FIGURE_D1,
    script:
        "../../scripts/paperD_D4_figure.py"
