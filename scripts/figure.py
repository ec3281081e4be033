"""Any figure of the rooms' outputs lists: the rule's ``params.output_name`` names it
(attnspec.papers.<room>.outputs.FIGURES); attnspec.workflow.jobs.run_figure writes its files."""

from attnspec.workflow.jobs import run_figure
from attnspec.workflow.publish import run_staged

run_staged(run_figure, snakemake)  # noqa: F821
