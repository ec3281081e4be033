"""The rule graph of target ``all`` in Mermaid (figures/rulegraph.mmd), for the README.

Runs ``snakemake all --rulegraph mermaid-js`` on this workflow with the run's validated config
snapshot, so the graph is the one of this run's config. The nested run only reads the rules: it
takes no lock (the outer run holds it), executes nothing, and works in a temporary folder under
.snakemake/ that links the sources but none of the outputs
(attnspec.workflow.preflight.link_sources), because the outer run's jobs delete and rewrite
outputs while it builds its graph. Snakemake numbers the graph's nodes in set order, which
follows Python's string hashing: the nested run gets PYTHONHASHSEED=0 so the file is the same on
every run.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from attnspec.workflow.io import configure_logging, write_text
from attnspec.workflow.preflight import link_sources
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    command = [sys.executable, "-m", "snakemake", "all", "--rulegraph", "mermaid-js", "--nolock"]
    command += ["--snakefile", str(Path(smk.input.snakefiles[0]).resolve())]
    command += ["--configfile", str(Path(smk.input.config).resolve())]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    scratch = Path(".snakemake")  # the run's own disk (its free space is checked), not /tmp
    scratch.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="attnspec-rulegraph-", dir=scratch) as sources:
        link_sources(os.getcwd(), sources)
        log.info("running %s in %s", " ".join(command), sources)
        result = subprocess.run(
            command, capture_output=True, text=True, check=False, env=env, cwd=sources
        )
    log.info("nested snakemake said:\n%s", result.stderr)
    if result.returncode != 0:
        raise RuntimeError(f"snakemake --rulegraph failed ({result.returncode}), see the log")
    write_text(smk.output[0], result.stdout)
    log.info("%d lines of Mermaid", result.stdout.count("\n"))


run_staged(main, snakemake)  # noqa: F821
