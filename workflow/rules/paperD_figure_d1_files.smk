# Figure D4, paper D's own figure D.1 (appendix D.7): one job per panel computes all its draws
# (attnspec.papers.d.design_choices, each draw seeded on its own), then the figure is drawn from
# its tidy table. Checked before any job (attnspec.papers.d.config_check): whole head widths in
# panel (a), a tied law the library solves in panel (c).

from attnspec.papers.d.design_choices import (
    PANELS as FIGURE_D1_PANELS,
    panel_peak_mb,
)

FIGURE_D1 = config["paperD"]["figure_d1"]

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
