"""Figure D3: independent heads, MQA/GQA sharing and K = V tying against the independent-head
and tied laws, drawn from its tidy table (PDF, PNG, CSV), its caption with what the data show
and the verdicts of rows D.2/<scheme> and D.3/tied (read from the judged claims table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.d.evidence import sharing_laws
from attnspec.papers.d.plot_multihead import plot_sharing
from attnspec.papers.d.summary import sharing_findings, sharing_plotted_table
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    settings = smk.params.settings
    keys = [(scheme, n) for scheme in settings["schemes"] for n in settings["n_tokens"]]
    spectra = {}
    for (scheme, n), path in zip(keys, smk.input.draws, strict=True):
        spectra.setdefault(scheme, {})[n] = load_npz(path)["softmax"]
    judged = rows_of(read_csv(smk.input.claims), "D.2/") + rows_of(
        read_csv(smk.input.claims), "D.3/"
    )
    laws = sharing_laws(settings)
    plotted = sharing_plotted_table(spectra, laws)
    figure = plot_sharing(write_plotted(smk, plotted), settings["histogram_bins"])
    write_figure_outputs(
        smk,
        figure,
        judged=judged,
        intro=sharing_findings(spectra, laws),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
