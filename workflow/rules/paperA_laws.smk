# Paper A, figures A3 (the bulk against nu_inf and the MP surrogate, claim A.4) with the
# evidence of the rows A.4 (judged on the spectra of paperA.linearisation), A7 (nu_inf
# across c = ell / d_qk) and A8 (nu_inf against its MP surrogate, theory only: no spectra).
# Spectra come from the batched rule paperA_spectra (paperA.smk).

BULK_LAWS = config["paperA"]["bulk_laws"]
LIMIT_LAW = config["paperA"]["limit_law"]
RATIO_SWEEP = config["paperA"]["ratios"]
RATIO_PANELS = ratio_panels(RATIO_SWEEP)


# The spectrum batch point of each A7 panel, in panel order.
RATIO_POINTS = [
    (
        RATIO_SWEEP["n_tokens"],
        panel["d_qk"],
        RATIO_SWEEP["beta"],
        panel["sampler"],
        panel["d_model"],
    )
    for panel in RATIO_PANELS
]


rule paperA_A3_summary:
    """Per beta of figure A3: the pooled bulk and Y_lin against nu_inf and the MP surrogate
    (histograms, edge region, per-draw and pooled distances), and per draw the share of the
    bulk above 4 theta_1 (the statistic of the rows A.4, at this one ell)."""
    input:
        attention=lambda wildcards: bulk_laws_spectra(wildcards.results, "attention"),
        linear=lambda wildcards: bulk_laws_spectra(wildcards.results, "linear"),
    output:
        "{results}/paperA/bulk_laws/summary.npz",
    log:
        "logs/{results}/paperA/bulk_laws/summary.log",
    benchmark:
        "benchmarks/{results}/paperA/bulk_laws/summary.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(500)),
    params:
        bulk_laws=BULK_LAWS,
    script:
        f"{SCRIPTS}/paperA_A3_summary.py"


rule paperA_A3_evidence:
    """Evidence of the rows A.4/beta=0.5 and A.4/beta=1: per draw the share of the bulk above
    4 theta_1 (and above 4 theta_1 at the wrong betas) at every ell of paperA.linearisation
    (c = 1), the largest judged, every ell for the finite-size model."""
    input:
        attention=lambda wildcards: edge_share_spectra(wildcards.results, "attention"),
        linear=lambda wildcards: edge_share_spectra(wildcards.results, "linear"),
    output:
        "{results}/paperA/evidence/A3-bulk-laws.npz",
    log:
        "logs/{results}/paperA/evidence/A3-bulk-laws.log",
    benchmark:
        "benchmarks/{results}/paperA/evidence/A3-bulk-laws.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="A3-bulk-laws",
        points=EDGE_SHARE_POINTS,
        draws=config["paperA"]["linearisation"]["draws"],
    script:
        f"{SCRIPTS}/evidence.py"


rule paperA_A3_figure:
    """Figure A3: the bulk against nu_inf and the MP surrogate (claim A.4), drawn from its tidy
    CSV."""
    input:
        summary=f"{RESULTS}/paperA/bulk_laws/summary.npz",
        attention=bulk_laws_spectra(RESULTS, "attention"),
        linear=bulk_laws_spectra(RESULTS, "linear"),
        claims=f"{RESULTS}/paperA/claims.csv",
        paper_scale=paper_scale_claims_of("A"),
        caption="workflow/report/paperA/A3-bulk-laws.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperA/A3-bulk-laws")),
    log:
        "logs/paperA/A3-figure.log",
    benchmark:
        "benchmarks/paperA/A3-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="A3-bulk-laws",
        bulk_laws=BULK_LAWS,
    script:
        f"{SCRIPTS}/figure.py"


rule paperA_A7_summary:
    """Per A7 panel (c = ell / d_qk, then literal X): the pooled bulk against nu_inf(beta, c)
    and at the swapped ratio."""
    input:
        lambda wildcards: [
            spectrum_batch(wildcards.results, "attention", *point)
            for point in RATIO_POINTS
        ],
    output:
        "{results}/paperA/ratios/summary.npz",
    log:
        "logs/{results}/paperA/ratios/summary.log",
    benchmark:
        "benchmarks/{results}/paperA/ratios/summary.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(500)),
    params:
        ratios=RATIO_SWEEP,
        panels=RATIO_PANELS,
    script:
        f"{SCRIPTS}/paperA_A7_summary.py"


rule paperA_A7_figure:
    """Figure A7: the bulk against nu_inf(beta, c) across c = ell / d_qk, drawn from its tidy
    CSV."""
    input:
        summary=f"{RESULTS}/paperA/ratios/summary.npz",
        spectra=[spectrum_batch(RESULTS, "attention", *point) for point in RATIO_POINTS],
        caption="workflow/report/paperA/A7-ratios.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperA/A7-ratios")),
    log:
        "logs/paperA/A7-figure.log",
    benchmark:
        "benchmarks/paperA/A7-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="A7-ratios",
        ratios=RATIO_SWEEP,
    script:
        f"{SCRIPTS}/figure.py"


rule paperA_A8_figure:
    """Figure A8: the limit law nu_inf across beta and c against its MP surrogate (theory only,
    no simulation), drawn from its tidy CSV."""
    input:
        caption="workflow/report/paperA/A8-limit-law.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperA/A8-limit-law")),
    log:
        "logs/paperA/A8-figure.log",
    benchmark:
        "benchmarks/paperA/A8-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="A8-limit-law",
        limit_law=LIMIT_LAW,
    script:
        f"{SCRIPTS}/figure.py"
