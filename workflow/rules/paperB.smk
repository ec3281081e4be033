# Paper B (bulk-edge sticking, Jerschow): figures B1-B6, tables B-T1, B-T2, claims B.1-B.4.


include: "paperB_files.smk"


rule paperB:
    """Target: every figure and table of paper B and its judged claims table."""
    input:
        CONFIG_SNAPSHOT,
        expand(
            in_figures("paperB/{figure}.{ext}"),
            figure=FIGURES_OF["B"],
            ext=FIGURE_EXTENSIONS,
        ),
        expand(
            in_figures("paperB/{table}.{ext}"),
            table=TABLES_OF["B"],
            ext=["csv", "md", "tex"],
        ),
        expand(in_figures("paperB/claims.{ext}"), ext=["csv", "md"]),
        receipts("B", FIGURES_OF["B"] + TABLES_OF["B"] + ["claims"]),
