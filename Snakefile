# attnspec: `snakemake --cores all` from the repository root runs the workflow in workflow/Snakefile
# (the layout of the Snakemake workflow catalog); see README.md.


include: "workflow/Snakefile"


# Snakemake keeps the default target of the including file, not of the included one: make the
# workflow's `all` the default here too (its default_target applies when workflow/Snakefile is
# run directly or used as a module).
workflow.default_target = "all"
