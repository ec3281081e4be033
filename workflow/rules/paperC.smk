# Paper C (spectral degeneration under isotropic score geometry): figures C1-C6, tables C-T1,
# C-T2, claims C.1-C.6.


rule paperC:
    """Target: every figure and table of paper C and its judged claims table."""
    input:
        CONFIG_SNAPSHOT,
        expand(
            in_figures("paperC/{figure}.{ext}"),
            figure=FIGURES_OF["C"],
            ext=FIGURE_EXTENSIONS,
        ),
        expand(
            in_figures("paperC/{table}.{ext}"),
            table=TABLES_OF["C"],
            ext=["csv", "md", "tex"],
        ),
        expand(in_figures("paperC/claims.{ext}"), ext=["csv", "md"]),
        receipts("C", FIGURES_OF["C"] + TABLES_OF["C"] + ["claims"]),
