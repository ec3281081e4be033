# Paper A, figures A2 (full spectrum of sqrt(ell) A) and A6 (Perron mode and stable rank).

FULL_SPECTRUM = config["paperA"]["spectrum"]
PERRON = config["paperA"]["perron"]
FULL_SPECTRUM_PATTERN = (
    "results/paperA/full_spectrum/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.npz"
)
PERRON_PATTERN = "results/paperA/perron/ell{n_tokens}-beta{beta}-draws{draws}.npz"


rule paperA_A2_draw:
    output:
        FULL_SPECTRUM_PATTERN,
    log:
        "logs/paperA/full_spectrum/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.log",
    benchmark:
        "benchmarks/paperA/full_spectrum/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        d_qk=r"\d+",
        beta=r"\d+\.\d+(e[+-]\d+)?",
        draw=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=lambda wildcards: dense_job_mem_mb(wildcards.n_tokens, copies=4),
    script:
        "../../scripts/paperA_A2_draw.py"


rule paperA_A2_figure:
    input:
        draws=expand(
            FULL_SPECTRUM_PATTERN,
            n_tokens=FULL_SPECTRUM["n_tokens"],
            d_qk=FULL_SPECTRUM["d_qk"],
            beta=repr(float(FULL_SPECTRUM["beta"])),
            draw=range(FULL_SPECTRUM["draws"]),
        ),
        caption="workflow/report/paperA/A2-spectrum.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperA/A2-spectrum.pdf",
        png=reported("figures/paperA/A2-spectrum.png"),
        plotted="figures/paperA/A2-spectrum.csv",
        caption="figures/paperA/A2-spectrum.md",
    log:
        "logs/paperA/A2-figure.log",
    benchmark:
        "benchmarks/paperA/A2-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        spectrum=FULL_SPECTRUM,
    script:
        "../../scripts/paperA_A2_figure.py"


rule paperA_A6_simulate:
    output:
        PERRON_PATTERN,
    log:
        "logs/paperA/perron/ell{n_tokens}-beta{beta}-draws{draws}.log",
    benchmark:
        "benchmarks/paperA/perron/ell{n_tokens}-beta{beta}-draws{draws}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
        beta=r"\d+\.\d+(e[+-]\d+)?",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        # 4 copies of ell^2 doubles measured (629 MiB peak at ell = 4096); one spare
        mem_mb=lambda wildcards: dense_job_mem_mb(wildcards.n_tokens, copies=5),
    script:
        "../../scripts/paperA_A6_simulate.py"


rule paperA_A6_figure:
    input:
        points=[
            PERRON_PATTERN.format(
                n_tokens=n_tokens, beta=repr(float(beta)), draws=PERRON["draws"]
            )
            for beta in PERRON["betas"]
            for n_tokens in PERRON["n_tokens"]
        ],
        caption="workflow/report/paperA/A6-perron.rst",
        config="results/config.yaml",
    output:
        pdf="figures/paperA/A6-perron.pdf",
        png=reported("figures/paperA/A6-perron.png"),
        plotted="figures/paperA/A6-perron.csv",
        caption="figures/paperA/A6-perron.md",
        claims="results/paperA/claims/A6-perron.csv",
    log:
        "logs/paperA/A6-figure.log",
    benchmark:
        "benchmarks/paperA/A6-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(800),
    params:
        perron=PERRON,
    script:
        "../../scripts/paperA_A6_figure.py"
