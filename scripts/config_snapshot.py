"""Write the run's validated config as YAML (an input of the theory-only tables)."""

import yaml

from attnspec.io import configure_logging, write_text


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    write_text(smk.output[0], yaml.safe_dump(dict(smk.params.config), sort_keys=True))
    log.info("config snapshot written")


main(snakemake)  # noqa: F821
