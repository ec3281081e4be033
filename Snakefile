"""attnspec: figures and tables of three random-matrix papers on softmax attention.

Targets: all (default), paperA, paperB, paperC. Presets: config/config.yaml (default),
config/paper.yaml (the papers' sizes), config/ci.yaml (tiny, for tests).
"""

import os
import sys

from snakemake.utils import min_version

min_version("9.0")

# The scripts import the repository's attnspec package whether or not it is pip-installed
# (conda rule environments do not install it).
sys.path.insert(0, workflow.basedir)
os.environ.update(
    PYTHONPATH=os.pathsep.join(
        p for p in (workflow.basedir, os.environ.get("PYTHONPATH")) if p
    )
)

from attnspec.configcheck import prepare_config  # noqa: E402

# The preset: config/config.yaml unless --configfile names one, which must then be complete on
# its own; --config overrides either. Checked before any job (attnspec.configcheck).
_checked = prepare_config(
    config,
    configfiles=workflow.config_settings.configfiles,
    default_preset=os.path.join(workflow.basedir, "config", "config.yaml"),
    schema_path=os.path.join(workflow.basedir, "workflow", "schemas", "config.schema.yaml"),
)
config.clear()
config.update(_checked)


include: "workflow/rules/common.smk"
include: "workflow/rules/shared.smk"
include: "workflow/rules/paperA.smk"
include: "workflow/rules/paperA_perron.smk"
include: "workflow/rules/paperA_laws.smk"
include: "workflow/rules/paperA_edges.smk"
include: "workflow/rules/paperA_tables.smk"
include: "workflow/rules/paperB.smk"
include: "workflow/rules/paperB_sticking.smk"
include: "workflow/rules/paperB_theory.smk"
include: "workflow/rules/paperC.smk"
include: "workflow/rules/paperC_canonical.smk"
include: "workflow/rules/paperC_pretrained.smk"
include: "workflow/rules/notebooks.smk"
include: "workflow/rules/rulegraph.smk"


rule all:
    default_target: True
    input:
        rules.paperA.input,
        rules.paperB.input,
        rules.paperC.input,
        rules.claims_dashboard.output,
        expand(
            "figures/paper{paper}.{ext}",
            paper=list(PAPER_CATEGORIES),
            ext=["ipynb", "html"],
        ),
        rules.rulegraph.output.png,
