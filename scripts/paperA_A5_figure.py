"""Figure A5: linearisation threshold (PDF, PNG), numbers plotted, caption, claims A.1 and A.5."""

from pathlib import Path

from attnspec.experiments.linearisation import (
    DISTANCE_TABLE_HEADER,
    EXPONENT_TABLE_HEADER,
    collapse_analysis,
    convergence_claim,
    distance_table_rows,
    exponent_table_rows,
    summarise_distances,
    threshold_claim,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.linearisation import (
    LINEARISATION_PLOTTED_HEADER,
    linearisation_plotted_rows,
    plot_linearisation,
)
from attnspec.plotting.style import close
from attnspec.tables import to_markdown
from attnspec.verdicts import CLAIM_HEADER


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    summary = summarise_distances(load_npz(smk.input.distances))
    collapse = collapse_analysis(summary)
    figure = plot_linearisation(summary, collapse, n_draws=smk.params.linearisation["draws"])
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(
        smk.output.plotted,
        LINEARISATION_PLOTTED_HEADER,
        linearisation_plotted_rows(summary, collapse),
    )
    claims = [convergence_claim(summary), threshold_claim(summary, collapse)]
    write_csv(smk.output.claims, CLAIM_HEADER, [claim.as_row() for claim in claims])
    verdicts = "".join(
        f"\n**Claim {claim.claim_id}: {claim.verdict}.** {claim.quantity}: {claim.value:.4g} "
        f"(target {claim.target:.4g}, tolerance {claim.tolerance:.2g}). {claim.note}.\n"
        for claim in claims
    )
    write_text(
        smk.output.caption,
        render_caption(Path(smk.input.caption).read_text(), smk.config)
        + verdicts
        + "\nExponent s of D ~ ell^s (Kolmogorov, attention bulk) and spread across ell of "
        + "log10 D (decades), at fixed beta and at fixed x = beta / sqrt(log ell):\n\n"
        + to_markdown(EXPONENT_TABLE_HEADER, exponent_table_rows(summary, collapse))
        + "\n"
        + to_markdown(DISTANCE_TABLE_HEADER, distance_table_rows(summary)),
    )
    for claim in claims:
        log.info("claim %s: %s", claim.claim_id, claim.verdict)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
