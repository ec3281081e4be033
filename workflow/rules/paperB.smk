# Paper B (bulk-edge sticking, Jerschow): figures B1-B6, tables B-T1, B-T2, claims B.1-B.4.


include: "paperB_files.smk"


rule paperB:
    """Target: every figure and table of paper B and its judged claims table."""
    input:
        CONFIG_SNAPSHOT,
        expand(
            in_figures("paperB/{figure}.{ext}"),
            figure=PAPER_B_FIGURES,
            ext=FIGURE_EXTENSIONS,
        ),
        expand(
            in_figures("paperB/{table}.{ext}"),
            table=PAPER_B_TABLES,
            ext=["csv", "md", "tex"],
        ),
        expand(in_figures("paperB/claims.{ext}"), ext=["csv", "md"]),
        receipts("B", PAPER_B_FIGURES + PAPER_B_TABLES + ["claims"]),
