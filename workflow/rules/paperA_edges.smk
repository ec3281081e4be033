# Paper A, figures A4 (the edge x_+(beta) against 4 theta_1, with simulated top values of Y_lin)
# and A5 (distance of the bulk to nu_inf against beta / sqrt(log ell)), and the evidence of the
# rows A.1 and A.5. All simulations are square (c = 1, d_qk = ell) and come from the batched
# rule paperA_spectra (paperA.smk), so A4, A5, A3 and A-T2 share the jobs they have in common.

EDGE_CURVE = config["paperA"]["edge_curve"]
LINEARISATION = config["paperA"]["linearisation"]
# A5 spectra, in the order the distances script reads them: ell, then beta, then model.
LINEARISATION_POINTS = [
    {"model": model, "n_tokens": n_tokens, "beta": beta}
    for n_tokens in LINEARISATION["n_tokens"]
    for beta in LINEARISATION["betas"]
    for model in ("attention", "linear")
]


rule paperA_A4_figure:
    """Figure A4: the edge x_+(beta) against 4 theta_1 with the simulated top values of Y_lin,
    drawn from its tidy CSV."""
    input:
        spectra=[
            spectrum_batch(
                RESULTS, "linear", EDGE_CURVE["n_tokens"], EDGE_CURVE["n_tokens"], beta
            )
            for beta in EDGE_CURVE["simulated_betas"]
        ],
        caption="workflow/report/paperA/A4-edge.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperA/A4-edge")),
    log:
        "logs/paperA/A4-figure.log",
    benchmark:
        "benchmarks/paperA/A4-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="A4-edge",
        edge_curve=EDGE_CURVE,
    script:
        f"{SCRIPTS}/figure.py"


rule paperA_A5_distances:
    """Kolmogorov and relative W1 distances to nu_inf of every attention and Y_lin draw at every
    (ell, beta) of figure A5, and at the betas of the rows A.1 the Kolmogorov distances of the
    attention bulk to the wrong laws those rows must rule out."""
    input:
        lambda wildcards: [
            spectrum_batch(
                wildcards.results,
                point["model"],
                point["n_tokens"],
                point["n_tokens"],
                point["beta"],
            )
            for point in LINEARISATION_POINTS
        ],
    output:
        "{results}/paperA/linearisation/distances.npz",
    log:
        "logs/{results}/paperA/linearisation/distances.log",
    benchmark:
        "benchmarks/{results}/paperA/linearisation/distances.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(500)),
    params:
        points=LINEARISATION_POINTS,
        draws=LINEARISATION["draws"],
    script:
        f"{SCRIPTS}/paperA_A5_distances.py"


rule paperA_A5_evidence:
    """Evidence of the rows A.1/beta=0.5, A.1/beta=1, A.5/breakdown and A.5/location."""
    input:
        distances="{results}/paperA/linearisation/distances.npz",
    output:
        "{results}/paperA/evidence/A5-linearisation.npz",
    log:
        "logs/{results}/paperA/evidence/A5-linearisation.log",
    benchmark:
        "benchmarks/{results}/paperA/evidence/A5-linearisation.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="A5-linearisation",
    script:
        f"{SCRIPTS}/evidence.py"


rule paperA_A5_figure:
    """Figure A5: the linearisation threshold (claims A.1, A.5), drawn from its tidy CSV."""
    input:
        distances=f"{RESULTS}/paperA/linearisation/distances.npz",
        claims=f"{RESULTS}/paperA/claims.csv",
        paper_scale=paper_scale_claims_of("A"),
        caption="workflow/report/paperA/A5-linearisation.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperA/A5-linearisation")),
    log:
        "logs/paperA/A5-figure.log",
    benchmark:
        "benchmarks/paperA/A5-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="A5-linearisation",
    script:
        f"{SCRIPTS}/figure.py"
