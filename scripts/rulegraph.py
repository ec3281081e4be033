"""Draw the rule graph of target ``all`` (figures/rulegraph.png, .pdf) for the README.

Runs ``snakemake --rulegraph`` on this workflow with the run's validated config snapshot, so the
graph is the one of this run's config. The nested run only reads the rules: it takes no lock
(the outer run holds it) and executes nothing.
"""

import subprocess
import sys

from matplotlib import pyplot

from attnspec.io import configure_logging, save_figure
from attnspec.plotting.rulegraph import draw_rulegraph, parse_rulegraph

TITLE = "attnspec rule graph (target all): arrows go from a rule to the rules that read its outputs"


def rulegraph_dot(snakefile: str, configfile: str, log) -> str:
    """The DOT text of ``snakemake all --rulegraph`` for ``snakefile`` under ``configfile``."""
    command = [sys.executable, "-m", "snakemake", "all", "--rulegraph", "dot", "--nolock"]
    command += ["--snakefile", snakefile, "--configfile", configfile]
    log.info("running %s", " ".join(command))
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    log.info("nested snakemake said:\n%s", result.stderr)
    if result.returncode != 0:
        raise RuntimeError(f"snakemake --rulegraph failed ({result.returncode}), see the log")
    return result.stdout


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    graph = parse_rulegraph(rulegraph_dot(smk.input.snakefile, smk.input.config, log))
    log.info("%d rules, %d dependencies", len(graph.rules), len(graph.edges))
    figure = draw_rulegraph(graph, TITLE)
    save_figure(figure, smk.output.pdf, smk.output.png)
    pyplot.close(figure)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
