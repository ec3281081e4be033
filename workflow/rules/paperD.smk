# Paper D (multi-head attention, Hayase & Karakida, arXiv 2610.10033): figures D1-D4, tables
# D-T1, D-T2, claims D.1-D.3.


include: "paperD_files.smk"
include: "paperD_figure_d1_files.smk"
include: "paperD_figure_d1.smk"


rule paperD:
    """Target: every figure and table of paper D and its judged claims table."""
    input:
        CONFIG_SNAPSHOT,
        expand(
            in_figures("paperD/{figure}.{ext}"),
            figure=FIGURES_OF["D"],
            ext=FIGURE_EXTENSIONS,
        ),
        expand(
            in_figures("paperD/{table}.{ext}"),
            table=TABLES_OF["D"],
            ext=["csv", "md", "tex"],
        ),
        expand(in_figures("paperD/claims.{ext}"), ext=["csv", "md"]),
        receipts("D", FIGURES_OF["D"] + TABLES_OF["D"] + ["claims"]),
