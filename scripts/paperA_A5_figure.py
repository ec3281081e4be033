"""Figure A5: linearisation threshold (PDF, PNG), numbers plotted, caption, claims A.1 and A.5."""

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
from attnspec.io import configure_logging, load_npz, write_figure_outputs
from attnspec.plotting.linearisation import (
    LINEARISATION_PLOTTED_HEADER,
    linearisation_plotted_rows,
    plot_linearisation,
)

TABLES_INTRO = (
    "\nExponent s of D ~ ell^s (Kolmogorov, attention bulk) and spread across ell of "
    "log10 D (decades), at fixed beta and at fixed x = beta / sqrt(log ell):\n\n"
)


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    summary = summarise_distances(load_npz(smk.input.distances))
    collapse = collapse_analysis(summary)
    figure = plot_linearisation(summary, collapse, n_draws=smk.params.linearisation["draws"])
    claims = [convergence_claim(summary), threshold_claim(summary, collapse)]
    verdicts = "".join(
        f"\n**Claim {claim.claim_id}: {claim.verdict}.** {claim.quantity}: {claim.value:.4g} "
        f"(target {claim.target:.4g}, tolerance {claim.tolerance:.2g}). {claim.note}.\n"
        for claim in claims
    )
    write_figure_outputs(
        smk,
        figure,
        LINEARISATION_PLOTTED_HEADER,
        linearisation_plotted_rows(summary, collapse),
        tables=[
            (EXPONENT_TABLE_HEADER, exponent_table_rows(summary, collapse)),
            (DISTANCE_TABLE_HEADER, distance_table_rows(summary)),
        ],
        claim=claims,
        intro=verdicts + TABLES_INTRO,
        claim_table=False,
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
