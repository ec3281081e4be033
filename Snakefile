# attnspec: `snakemake --cores all` from the repository root runs the workflow in workflow/Snakefile
# (the layout of the Snakemake workflow catalog); see README.md.


include: "workflow/Snakefile"
