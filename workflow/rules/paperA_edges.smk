# Paper A, figures A4 (the edge x_+(beta) against 4 theta_1, with simulated top values of Y_lin)
# and A5 (distance of the bulk to nu_inf against beta / sqrt(log ell), claims A.1 and A.5).
# All simulations are square (c = 1, d_qk = ell) and come from the generic rule
# paperA_spectrum_draw (paperA.smk), so A4, A5 and A3 share the jobs they have in common.

EDGE_CURVE = config["paperA"]["edge_curve"]
LINEARISATION = config["paperA"]["linearisation"]
# A5 spectra, in the order the distances script reads them: ell, then beta, then model, then draw.
LINEARISATION_POINTS = [
    {"model": model, "n_tokens": n_tokens, "beta": beta, "draw": draw}
    for n_tokens in LINEARISATION["n_tokens"]
    for beta in LINEARISATION["betas"]
    for model in ("attention", "linear")
    for draw in range(LINEARISATION["draws"])
]


rule paperA_A4_figure:
    input:
        spectra=[
            path
            for beta in EDGE_CURVE["simulated_betas"]
            for path in spectrum_files(
                "linear",
                EDGE_CURVE["n_tokens"],
                EDGE_CURVE["n_tokens"],
                beta,
                EDGE_CURVE["draws"],
            )
        ],
        caption="workflow/report/paperA/A4-edge.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperA/A4-edge.pdf",
        png=reported("figures/paperA/A4-edge.png"),
        plotted="figures/paperA/A4-edge.csv",
        caption="figures/paperA/A4-edge.md",
    log:
        "logs/paperA/A4-figure.log",
    benchmark:
        "benchmarks/paperA/A4-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        edge_curve=EDGE_CURVE,
    script:
        "../../scripts/paperA_A4_figure.py"


rule paperA_A5_distances:
    input:
        [
            path
            for n_tokens in LINEARISATION["n_tokens"]
            for beta in LINEARISATION["betas"]
            for model in ("attention", "linear")
            for path in spectrum_files(
                model, n_tokens, n_tokens, beta, LINEARISATION["draws"]
            )
        ],
    output:
        "results/paperA/linearisation/distances.npz",
    log:
        "logs/paperA/linearisation/distances.log",
    benchmark:
        "benchmarks/paperA/linearisation/distances.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(500),
    params:
        points=LINEARISATION_POINTS,
    script:
        "../../scripts/paperA_A5_distances.py"


rule paperA_A5_figure:
    input:
        distances="results/paperA/linearisation/distances.npz",
        caption="workflow/report/paperA/A5-linearisation.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperA/A5-linearisation.pdf",
        png=reported("figures/paperA/A5-linearisation.png"),
        plotted="figures/paperA/A5-linearisation.csv",
        caption="figures/paperA/A5-linearisation.md",
        claims="results/paperA/claims/A5-linearisation.csv",
    log:
        "logs/paperA/A5-figure.log",
    benchmark:
        "benchmarks/paperA/A5-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        linearisation=LINEARISATION,
    script:
        "../../scripts/paperA_A5_figure.py"
