"""Any table of the rooms' outputs lists: the rule's ``params.output_name`` names it
(attnspec.papers.<room>.outputs.TABLES); attnspec.workflow.jobs.run_table writes its files."""

from attnspec.workflow.jobs import run_table
from attnspec.workflow.publish import run_staged

run_staged(run_table, snakemake)  # noqa: F821
