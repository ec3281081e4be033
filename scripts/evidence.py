"""Any evidence file of the rooms' outputs lists: the rule's ``params.output_name`` names it
(attnspec.papers.<room>.outputs.EVIDENCE); attnspec.workflow.jobs.run_evidence writes it."""

from attnspec.workflow.jobs import run_evidence

run_evidence(snakemake)  # noqa: F821
