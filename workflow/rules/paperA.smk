# Paper A (Gaussian equivalence, Hayase-Collins-Karakida): figures A1-A8, tables A-T1, A-T2,
# and the evidence of the registry rows A.1-A.5 (attnspec.papers.a.declared_tests).


rule paperA:
    """Every figure and table of paper A with its claims table."""
    input:
        CONFIG_SNAPSHOT,
        expand(
            in_figures("paperA/{figure}.{ext}"),
            figure=FIGURES_OF["A"],
            ext=FIGURE_EXTENSIONS,
        ),
        expand(
            in_figures("paperA/{table}.{ext}"),
            table=TABLES_OF["A"],
            ext=["csv", "md", "tex"],
        ),
        expand(in_figures("paperA/claims.{ext}"), ext=["csv", "md"]),
        receipts("A", FIGURES_OF["A"] + TABLES_OF["A"] + ["claims"]),


rule paperA_spectra:
    """Squared singular values of every model and draw one parameter point needs (one job per
    point; each draw from its own seeded streams, bit-identical to computing it alone).
    """
    output:
        SPECTRUM_BATCH_PATTERN,
    log:
        "logs/{results}/paperA/spectra/ell{n_tokens}-dqk{d_qk}-beta{beta}-{sampler}/{models}-draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperA/spectra/ell{n_tokens}-dqk{d_qk}-beta{beta}-{sampler}/{models}-draws{draws}.tsv"
    wildcard_constraints:
        models="(" + "|".join(MODEL_NAMES) + r")(\+(" + "|".join(MODEL_NAMES) + "))*",
        n_tokens=r"\d+",
        d_qk=r"\d+",
        beta=r"\d+(\.\d+)?(e[+-]\d+)?",
        sampler=r"gaussian|literal-d\d+",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(spectra_mem_mb),
    params:
        store=config["store"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperA_spectra.py"


STEPWISE_POINT = dict(
    n_tokens=STEPWISE["n_tokens"],
    d_qk=STEPWISE["d_qk"],
    beta=STEPWISE["beta"],
    sampler=STEPWISE["sampler"],
    d_model=STEPWISE["d_model"],
)


rule paperA_stepwise_pool:
    """Figure A1 and table A-T2: histograms, sorted bulks, moments and distances of every
    stepwise model's pooled bulk against nu_inf and the attention bulk."""
    input:
        lambda wildcards: [
            spectrum_batch(wildcards.results, model, **STEPWISE_POINT)
            for model in MODEL_NAMES
        ],
    output:
        "{results}/paperA/stepwise/summary.npz",
    log:
        "logs/{results}/paperA/stepwise/pool.log",
    benchmark:
        "benchmarks/{results}/paperA/stepwise/pool.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(500)),
    params:
        stepwise=STEPWISE,
        models=list(MODEL_NAMES),
    script:
        f"{SCRIPTS}/paperA_stepwise_pool.py"


rule paperA_A1_figure:
    """Figure A1: the bulk of each stepwise model against nu_inf, drawn from its tidy CSV."""
    input:
        summary=f"{RESULTS}/paperA/stepwise/summary.npz",
        spectra=[
            spectrum_batch(RESULTS, model, **STEPWISE_POINT) for model in MODEL_NAMES
        ],
        claims=f"{RESULTS}/paperA/claims.csv",
        paper_scale=paper_scale_claims_of("A"),
        caption="workflow/report/paperA/A1-stepwise.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperA/A1-stepwise")),
    log:
        "logs/paperA/A1-figure.log",
    benchmark:
        "benchmarks/paperA/A1-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="A1-stepwise",
        stepwise=STEPWISE,
        models=list(MODEL_NAMES),
    script:
        f"{SCRIPTS}/figure.py"
