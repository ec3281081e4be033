# Paper D's figures D1-D3 and tables D-T1, D-T2 from the configured replicate's draws (RESULTS);
# the verdicts they show are read from the judged claims table, never computed here.


rule paperD_D1_figure:
    """Figure D1: relative W1 and KS of softmax against its same-weights Gaussian equivalent per
    table D.2 configuration, with Student-t 95 % intervals, beside the published numbers.
    """
    input:
        draws=public_model_files(RESULTS),
        claims=f"{RESULTS}/paperD/claims.csv",
        paper_scale=paper_scale_claims_of("D"),
        caption="workflow/report/paperD/D1-public-models.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperD/D1-public-models")),
    log:
        "logs/paperD/D1-figure.log",
    benchmark:
        "benchmarks/paperD/D1-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    params:
        output_name="D1-public-models",
        models=PUBLIC_MODELS_D["models"],
        beta=PUBLIC_MODELS_D["beta"],
    script:
        f"{SCRIPTS}/figure.py"


rule paperD_D2_figure:
    """Figure D2: the limit law against the softmax and Gaussian-equivalent spectra for several
    head counts h at a fixed per-head width."""
    input:
        draws=heads_files(RESULTS),
        caption="workflow/report/paperD/D2-heads.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperD/D2-heads")),
    log:
        "logs/paperD/D2-figure.log",
    benchmark:
        "benchmarks/paperD/D2-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    params:
        output_name="D2-heads",
        settings=HEADS_D,
    script:
        f"{SCRIPTS}/figure.py"


rule paperD_D3_figure:
    """Figure D3: independent heads, MQA/GQA sharing and K = V tying against the
    independent-head and tied laws, the distances against n and the statistics of rows D.2,
    D.3."""
    input:
        draws=sharing_files(RESULTS),
        claims=f"{RESULTS}/paperD/claims.csv",
        paper_scale=paper_scale_claims_of("D"),
        caption="workflow/report/paperD/D3-sharing.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperD/D3-sharing")),
    log:
        "logs/paperD/D3-figure.log",
    benchmark:
        "benchmarks/paperD/D3-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    params:
        output_name="D3-sharing",
        settings=SHARING_D,
    script:
        f"{SCRIPTS}/figure.py"


rule paperD_DT1_table:
    """Table D-T1: the table D.2 comparison, ours and the published numbers side by side, with
    the verdicts of rows D.1/<model>/published-<metric> (paper D's claim) and D.1/<model>/<metric>
    (beyond the paper)."""
    input:
        draws=public_model_files(RESULTS),
        claims=f"{RESULTS}/paperD/claims.csv",
        paper_scale=paper_scale_claims_of("D"),
        caption="workflow/report/paperD/D-T1-public-models.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **table_files(in_figures("paperD/D-T1-public-models")),
    log:
        "logs/paperD/D-T1-table.log",
    benchmark:
        "benchmarks/paperD/D-T1-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="D-T1-public-models",
        models=PUBLIC_MODELS_D["models"],
        beta=PUBLIC_MODELS_D["beta"],
    script:
        f"{SCRIPTS}/table.py"


rule paperD_DT2_table:
    """Table D-T2: normalised moments of the limit laws, in paper D's closed forms and from the
    S-transform series, against the simulated spectra of figures D2 and D3."""
    input:
        heads=heads_files(RESULTS),
        sharing=sharing_files(RESULTS, [max(SHARING_D["n_tokens"])]),
        caption="workflow/report/paperD/D-T2-moments.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **table_files(in_figures("paperD/D-T2-moments")),
    log:
        "logs/paperD/D-T2-table.log",
    benchmark:
        "benchmarks/paperD/D-T2-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="D-T2-moments",
        heads=HEADS_D,
        sharing=SHARING_D,
    script:
        f"{SCRIPTS}/table.py"
