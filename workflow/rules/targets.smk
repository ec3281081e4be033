# Short targets, one per figure and table id of papers.md section 6: `snakemake --cores all A1`
# builds figure A1-stepwise, `... AT1` table A-T1-edges (rule names cannot hold the dash of
# "A-T1"); each with the simulations it needs. Local rules: a cluster run does not submit them.

TABLE_EXTENSIONS = ["csv", "md", "tex"]


def target_name(item):
    """A1-stepwise -> A1, A-T1-edges -> AT1."""
    return item.split("-")[0] if item[1:3] != "-T" else item[0] + item.split("-")[1]


TARGETS = {
    target_name(item): expand(
        in_figures(f"paper{paper}/{item}.{{ext}}"), ext=extensions
    )
    + receipts(paper, [item])
    for paper in FIGURES_OF
    for items, extensions in (
        (FIGURES_OF[paper], FIGURE_EXTENSIONS),
        (TABLES_OF[paper], TABLE_EXTENSIONS),
    )
    for item in items
}


for _name, _files in TARGETS.items():

    rule:
        """Target: one figure or table of papers.md section 6, by its id."""
        name:
            _name
        input:
            CONFIG_SNAPSHOT,
            _files,
        localrule: True
