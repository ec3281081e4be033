# Rules shared by the papers: the per-paper claims tables, the dashboard of all claims and the
# snapshot of the run's config.


rule claims_judge:
    """Judge every registry row of one paper (attnspec.papers.registry) on its evidence: the 95 %
    interval against the declared margin, the finite-size model's limit, the declared wrong
    theories on the same data, stability under 1000 resamples and the power (attnspec.claims.engine).
    """
    input:
        lambda wildcards: evidence_files(wildcards.results, wildcards.paper),
    output:
        "{results}/paper{paper}/claims.csv",
    log:
        "logs/{results}/paper{paper}/claims-judge.log",
    benchmark:
        "benchmarks/{results}/paper{paper}/claims-judge.tsv"
    wildcard_constraints:
        paper="[ABCD]",
    conda:
        "../envs/simulate.yaml"
    threads: 2
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    params:
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/claims_judge.py"


rule claims_table:
    """One paper's judged rows (the configured replicate) as figures/paper<X>/claims.csv and a
    Markdown table, and the evidence they were judged on (figures/paper<X>/claims-evidence.npz:
    the committed data of the suite's mutation test)."""
    input:
        claims=f"{RESULTS}/paper{{paper}}/claims.csv",
        evidence=lambda wildcards: evidence_files(RESULTS, wildcards.paper),
    output:
        csv=report(
            committed(in_figures("paper{paper}/claims.csv")),
            caption="../report/claims.rst",
            category=lambda wildcards: PAPER_CATEGORIES[wildcards.paper],
            subcategory="Claims",
            labels=lambda wildcards: {
                "paper": wildcards.paper,
                "item": "claims",
                "kind": "table",
            },
        ),
        md=committed(in_figures("paper{paper}/claims.md")),
        evidence=committed(in_figures("paper{paper}/claims-evidence.npz")),
        published=receipt(in_figures("paper{paper}/claims")),
    log:
        "logs/paper{paper}/claims.log",
    benchmark:
        "benchmarks/paper{paper}/claims.tsv"
    wildcard_constraints:
        paper="[ABCD]",
    localrule: True
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(300)),
    script:
        f"{SCRIPTS}/claims_table.py"


rule claims_replicates:
    """Each row's verdict in replicates 1 and 2 (independent random streams) next to replicate
    0's: how stable the verdicts are under an independent rerun."""
    input:
        **{
            f"replicate{replicate}": [
                f"{results_root(replicate)}/paper{paper}/claims.csv"
                for paper in PAPER_CATEGORIES
            ]
            for replicate in [0, *EXTRA_REPLICATES]
        },
    output:
        csv=committed(in_figures("claims-replicates.csv")),
        md=committed(in_figures("claims-replicates.md")),
        published=receipt(in_figures("claims-replicates")),
    log:
        "logs/claims_replicates.log",
    benchmark:
        "benchmarks/claims_replicates.tsv"
    localrule: True
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(300)),
    script:
        f"{SCRIPTS}/claims_replicates.py"


rule replicates:
    """Target: the judged simulations of replicates 1 and 2 and figures/claims-replicates.md
    (not part of all)."""
    input:
        rules.claims_replicates.output,
    localrule: True


rule claims_dashboard:
    """The dashboard: every judged row of the papers in one table (figures/claims.csv, .md), with
    the paper preset's verdicts beside them when it was run."""
    input:
        **{paper: in_figures(f"paper{paper}/claims.csv") for paper in PAPER_CATEGORIES},
        paper_scale=paper_scale_claims,
    output:
        csv=report(
            committed(in_figures("claims.csv")),
            caption="../report/dashboard.rst",
            category="Claims of the papers",
            subcategory="Dashboard",
            labels={"paper": "all", "item": "dashboard", "kind": "table"},
        ),
        md=committed(in_figures("claims.md")),
        published=receipt(in_figures("claims")),
    log:
        "logs/claims_dashboard.log",
    benchmark:
        "benchmarks/claims_dashboard.tsv"
    localrule: True
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(300)),
    params:
        # read if present (the replicates target writes it), not an input: `all` does not run
        # the replicates
        replicates=in_figures("claims-replicates.csv"),
    script:
        f"{SCRIPTS}/claims_dashboard.py"


rule claims_forest:
    """The claims forest: every dashboard row as its statistic's distance from its target in
    margins, over its pass region, coloured by verdict, with its finite-size limit and its
    declared wrong theories (figures/claims-forest.png, and figures/paper<X>/<X>-forest.png for
    each paper)."""
    input:
        claims=rules.claims_dashboard.output.csv,
        paper_scale=paper_scale_claims,
        caption="workflow/report/claims-forest.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **(
            {"pdf": committed(in_figures("claims-forest.pdf"))}
            if config["vector_pdfs"]
            else {}
        ),
        **{
            f"png_{paper}": report(
                committed(in_figures(f"paper{paper}/{paper}-forest.png")),
                caption="../report/claims-forest.rst",
                category="Claims of the papers",
                subcategory="Forest",
                labels={"paper": paper, "item": "forest", "kind": "figure"},
            )
            for paper in PAPER_CATEGORIES
        },
        **(
            {
                f"pdf_{paper}": committed(
                    in_figures(f"paper{paper}/{paper}-forest.pdf")
                )
                for paper in PAPER_CATEGORIES
            }
            if config["vector_pdfs"]
            else {}
        ),
        **{
            f"plotted_{paper}": committed(
                in_figures(f"paper{paper}/{paper}-forest.csv")
            )
            for paper in PAPER_CATEGORIES
        },
        **{
            f"caption_{paper}": committed(
                in_figures(f"paper{paper}/{paper}-forest.md")
            )
            for paper in PAPER_CATEGORIES
        },
        png=report(
            committed(in_figures("claims-forest.png")),
            caption="../report/claims-forest.rst",
            category="Claims of the papers",
            subcategory="Forest",
            labels={"paper": "all", "item": "forest", "kind": "figure"},
        ),
        plotted=committed(in_figures("claims-forest.csv")),
        caption=committed(in_figures("claims-forest.md")),
        # one file per paper, drawn from the same tidy CSV
        published=receipt(in_figures("claims-forest")),
    log:
        "logs/claims_forest.log",
    benchmark:
        "benchmarks/claims_forest.tsv"
    localrule: True
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        # read if present (the replicates target writes it), not an input: `all` does not run
        # the replicates
        replicates=in_figures("claims-replicates.csv"),
    script:
        f"{SCRIPTS}/forest_figure.py"


rule claims_limits:
    """The judged finite-size limits: each dashboard row with a finite-size model, its statistic
    at each size, the fits over its declared rates and its limit against the limit's pass region
    (figures/claims-limits.png), from the evidence the rows were judged on."""
    input:
        claims=rules.claims_dashboard.output.csv,
        evidence=[
            in_figures(f"paper{paper}/claims-evidence.npz")
            for paper in PAPER_CATEGORIES
        ],
        caption="workflow/report/claims-limits.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **(
            {"pdf": committed(in_figures("claims-limits.pdf"))}
            if config["vector_pdfs"]
            else {}
        ),
        png=report(
            committed(in_figures("claims-limits.png")),
            caption="../report/claims-limits.rst",
            category="Claims of the papers",
            subcategory="Finite-size limits",
            labels={"paper": "all", "item": "limits", "kind": "figure"},
        ),
        plotted=committed(in_figures("claims-limits.csv")),
        caption=committed(in_figures("claims-limits.md")),
        published=receipt(in_figures("claims-limits")),
    log:
        "logs/claims_limits.log",
    benchmark:
        "benchmarks/claims_limits.tsv"
    localrule: True
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    script:
        f"{SCRIPTS}/limits_figure.py"


rule config_snapshot:
    """The validated config of this run. Every figure and table depends on it, so that a fresh
    clone recomputes them all although their committed copies exist: results/ is never committed,
    and Snakemake does not rerun a job only because its intermediate inputs are missing.
    """
    output:
        CONFIG_SNAPSHOT,
    log:
        "logs/config_snapshot.log",
    benchmark:
        "benchmarks/config_snapshot.tsv"
    localrule: True
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(200)),
    params:
        config=CHECKED_CONFIG,
        provenance=PROVENANCE,
    script:
        f"{SCRIPTS}/config_snapshot.py"


rule store_verify:
    """Recompute chosen draws of the committed store (config key verify, else the first at the
    largest size of each kind) and compare them with it; the report is the job's log,
    logs/store_verify.log (the output is temporary, so every call of `verify` recomputes).
    """
    output:
        temp("results/store-verify.txt"),
    log:
        "logs/store_verify.log",
    benchmark:
        "benchmarks/store_verify.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(13000)),
    params:
        store=config["store"] or "data/store",
        names=config.get("verify", ""),
    script:
        f"{SCRIPTS}/store_verify.py"


rule verify:
    """Target: recompute chosen stored draws and compare them with the store (not part of all;
    the report is logs/store_verify.log)."""
    input:
        rules.store_verify.output,
    localrule: True
