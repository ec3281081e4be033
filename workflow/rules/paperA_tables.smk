# Paper A tables A-T1 (edges over beta and c) and A-T2 (stepwise models).


rule paperA_AT1_table:
    input:
        caption="workflow/report/paperA/A-T1-edges.rst",
        config="results/config.yaml",
    output:
        csv=reported("figures/paperA/A-T1-edges.csv"),
        md="figures/paperA/A-T1-edges.md",
        tex="figures/paperA/A-T1-edges.tex",
    log:
        "logs/paperA/A-T1-table.log",
    benchmark:
        "benchmarks/paperA/A-T1-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(400),
    params:
        edge_table=config["paperA"]["edge_table"],
    script:
        "../../scripts/paperA_AT1_table.py"


rule paperA_AT2_table:
    input:
        summary="results/paperA/stepwise/summary.npz",
        attention=spectrum_files(
            "attention",
            STEPWISE["n_tokens"],
            STEPWISE["d_qk"],
            STEPWISE["beta"],
            STEPWISE["draws"],
            STEPWISE["sampler"],
            STEPWISE["d_model"],
        ),
        linear=spectrum_files(
            "linear",
            STEPWISE["n_tokens"],
            STEPWISE["d_qk"],
            STEPWISE["beta"],
            STEPWISE["draws"],
            STEPWISE["sampler"],
            STEPWISE["d_model"],
        ),
        trend_attention=[
            path
            for ell in config["paperA"]["linearisation"]["n_tokens"]
            for path in spectrum_files(
                "attention",
                ell,
                ell,
                STEPWISE["beta"],
                config["paperA"]["linearisation"]["draws"],
            )
        ],
        trend_linear=[
            path
            for ell in config["paperA"]["linearisation"]["n_tokens"]
            for path in spectrum_files(
                "linear",
                ell,
                ell,
                STEPWISE["beta"],
                config["paperA"]["linearisation"]["draws"],
            )
        ],
        caption="workflow/report/paperA/A-T2-stepwise.rst",
        config="results/config.yaml",
    output:
        csv=reported("figures/paperA/A-T2-stepwise.csv"),
        md="figures/paperA/A-T2-stepwise.md",
        tex="figures/paperA/A-T2-stepwise.tex",
        claims="results/paperA/claims/A-T2-stepwise.csv",
    log:
        "logs/paperA/A-T2-table.log",
    benchmark:
        "benchmarks/paperA/A-T2-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=job_mem_mb(600),
    params:
        stepwise=STEPWISE,
        trend_ells=config["paperA"]["linearisation"]["n_tokens"],
        trend_draws=config["paperA"]["linearisation"]["draws"],
    script:
        "../../scripts/paperA_AT2_table.py"
