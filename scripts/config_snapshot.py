"""Write the run's validated config as YAML, headed by the provenance of the code."""

import yaml

from attnspec.workflow.io import configure_logging, write_text
from attnspec.workflow.provenance import PREFIX


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    text = yaml.safe_dump(dict(smk.params.config), sort_keys=True)
    write_text(smk.output[0], f"{PREFIX}{smk.params.provenance}\n{text}")
    log.info("config snapshot written (%s)", smk.params.provenance)


main(snakemake)  # noqa: F821
