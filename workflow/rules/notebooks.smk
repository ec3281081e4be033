# Companion notebooks: one jupytext script per paper (workflow/notebooks/paper<X>.py), executed
# on the paper's figures, tables and verdicts into figures/paper<X>.ipynb and .html.

NOTEBOOK_HTML = in_figures("paper{paper}.html")
# The notebooks are made by a run, never committed: on a fresh clone `snakemake --report`
# builds the report from the committed figures and tables alone; once a run has made every
# notebook, the report shows them too.
NOTEBOOKS_IN_REPORT = all(
    os.path.exists(NOTEBOOK_HTML.format(paper=paper)) for paper in PAPER_CATEGORIES
)


rule paper_notebook:
    """Execute a paper's companion notebook (jupytext script) on its figures, tables and
    verdicts into figures/paper<X>.ipynb and a self-contained HTML page."""
    input:
        source="workflow/notebooks/paper{paper}.py",
        figures=lambda wildcards: expand(
            in_figures("paper{paper}/{name}.{ext}"),
            paper=wildcards.paper,
            name=FIGURES_OF[wildcards.paper],
            ext=["png", "md"],
        ),
        tables=lambda wildcards: expand(
            in_figures("paper{paper}/{name}.md"),
            paper=wildcards.paper,
            name=TABLES_OF[wildcards.paper],
        ),
        claims=in_figures("paper{paper}/claims.md"),
    output:
        ipynb=in_figures("paper{paper}.ipynb"),
        html=(
            report(
                NOTEBOOK_HTML,
                caption="../report/notebook.rst",
                category=lambda wildcards: PAPER_CATEGORIES[wildcards.paper],
                subcategory="Companion notebook",
                labels=lambda wildcards: {
                    "paper": wildcards.paper,
                    "item": "notebook",
                    "kind": "notebook",
                },
            )
            if NOTEBOOKS_IN_REPORT
            else NOTEBOOK_HTML
        ),
    log:
        "logs/paper{paper}/notebook.log",
    benchmark:
        "benchmarks/paper{paper}/notebook.tsv"
    wildcard_constraints:
        paper="[ABCD]",
    conda:
        "../envs/notebook.yaml"
    threads: 1
    resources:
        # the executing process (nbclient, nbconvert) and the kernel (measured: docs/benchmark.md)
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    script:
        f"{SCRIPTS}/paper_notebook.py"
