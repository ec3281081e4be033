"""Figure C3: stable rank against n, canonical and Gaussian models, drawn from its tidy table
(PDF, PNG, CSV), and its caption with table C-T1's rows and the verdicts of C.3 and C.4."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.c.degeneration_summary import (
    STABLE_RANK_TABLE_HEADER,
    collect_stable_ranks,
    stable_rank_plotted_table,
    stable_rank_table_rows,
)
from attnspec.papers.c.plot_degeneration import plot_stable_rank
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
    params = smk.params
    data = collect_stable_ranks(
        (params.stable_rank["n_tokens"], [load_npz(p) for p in smk.input.canonical]),
        (params.isotropic["n_tokens"], [load_npz(p) for p in smk.input.isotropic]),
        (params.gaussian_model["n_tokens"], [load_npz(p) for p in smk.input.gaussian]),
        params.stable_rank["profiles"],
        params.isotropic["profile"],
    )
    reference = load_npz(smk.input.reference)
    claims = read_csv(smk.input.claims)
    judged = [*rows_of(claims, "C.3/"), *rows_of(claims, "C.4/")]
    spikes, beta = params.model["spikes"], params.gaussian_model["beta"]
    tidy = stable_rank_plotted_table(data, reference, spikes=spikes, beta=beta)
    plotted = write_plotted(smk, tidy)
    figure = plot_stable_rank(plotted, beta=beta)
    table = stable_rank_table_rows(
        [*data.canonical, *data.isotropic, *data.gaussian],
        data.cesaro,
        spikes=spikes,
        beta=beta,
        gaussian_reference=reference,
    )
    write_figure_outputs(
        smk,
        figure,
        tables=[(STABLE_RANK_TABLE_HEADER, table)],
        judged=judged,
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
