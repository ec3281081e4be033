# Paper A, figures A2 (full spectrum of sqrt(ell) A) and A6 (Perron mode and stable rank), and
# the evidence of the rows A.2.

FULL_SPECTRUM = config["paperA"]["spectrum"]
PERRON = config["paperA"]["perron"]
FULL_SPECTRUM_PATTERN = (
    "{results}/paperA/full_spectrum/ell{n_tokens}-dqk{d_qk}-beta{beta}-draws{draws}.npz"
)


declare_memory(
    "paperA.spectrum.n_tokens",
    [FULL_SPECTRUM["n_tokens"]],
    lambda n: full_spectrum_mem_mb(n, FULL_SPECTRUM["draws"]),
)
declare_memory("paperA.perron.n_tokens", PERRON["n_tokens"], perron_mem_mb)


rule paperA_A2_spectra:
    """Every draw of figure A2 in one job (each draw from its own seeded streams)."""
    output:
        FULL_SPECTRUM_PATTERN,
    log:
        "logs/{results}/paperA/full_spectrum/ell{n_tokens}-dqk{d_qk}-beta{beta}-draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperA/full_spectrum/ell{n_tokens}-dqk{d_qk}-beta{beta}-draws{draws}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        d_qk=r"\d+",
        beta=r"\d+(\.\d+)?(e[+-]\d+)?",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(
            lambda wildcards: full_spectrum_mem_mb(wildcards.n_tokens, wildcards.draws)
        ),
    params:
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperA_A2_spectra.py"


rule paperA_A2_figure:
    """Figure A2: the full spectrum of sqrt(ell) A (Perron value, bulk, edge, localisation),
    drawn from its tidy CSV."""
    input:
        draws=FULL_SPECTRUM_PATTERN.format(
            results=RESULTS,
            n_tokens=FULL_SPECTRUM["n_tokens"],
            d_qk=FULL_SPECTRUM["d_qk"],
            beta=repr(float(FULL_SPECTRUM["beta"])),
            draws=FULL_SPECTRUM["draws"],
        ),
        caption="workflow/report/paperA/A2-spectrum.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperA/A2-spectrum")),
    log:
        "logs/paperA/A2-figure.log",
    benchmark:
        "benchmarks/paperA/A2-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="A2-spectrum",
        spectrum=FULL_SPECTRUM,
    script:
        f"{SCRIPTS}/figure.py"


rule paperA_A6_simulate:
    """s_1(A) and ||A||_F^2 of every draw at every ell of paperA.perron, one beta per job."""
    output:
        PERRON_PATTERN,
    log:
        "logs/{results}/paperA/perron/beta{beta}-draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperA/perron/beta{beta}-draws{draws}.tsv"
    wildcard_constraints:
        beta=r"\d+(\.\d+)?(e[+-]\d+)?",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(perron_mem_mb(max(PERRON["n_tokens"]))),
    params:
        store=config["store"],
        n_tokens=PERRON["n_tokens"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperA_A6_simulate.py"


rule paperA_A6_evidence:
    """Evidence of the rows A.2/beta=0.5 and A.2/beta=1."""
    input:
        points=lambda wildcards: perron_files(wildcards.results),
    output:
        "{results}/paperA/evidence/A6-perron.npz",
    log:
        "logs/{results}/paperA/evidence/A6-perron.log",
    benchmark:
        "benchmarks/{results}/paperA/evidence/A6-perron.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="A6-perron",
        betas=PERRON["betas"],
    script:
        f"{SCRIPTS}/evidence.py"


rule paperA_A6_figure:
    """Figure A6: the Perron mode s_1(A) -> 1 and the stable rank (claim A.2), drawn from its
    tidy CSV."""
    input:
        points=perron_files(RESULTS),
        claims=f"{RESULTS}/paperA/claims.csv",
        paper_scale=paper_scale_claims_of("A"),
        caption="workflow/report/paperA/A6-perron.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperA/A6-perron")),
    log:
        "logs/paperA/A6-figure.log",
    benchmark:
        "benchmarks/paperA/A6-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="A6-perron",
        perron=PERRON,
    script:
        f"{SCRIPTS}/figure.py"
