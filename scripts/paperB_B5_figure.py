"""Figure B5: E_ell(Sigma_f) and E_ell(Sigma_G) against ell (PDF, PNG, CSV), caption, claim B.3."""

from pathlib import Path

from attnspec.experiments.conditional import (
    CONDITIONAL_TABLE_HEADER,
    COVARIANCES,
    conditional_check,
    conditional_claim,
    conditional_series,
    conditional_table_rows,
    judge_conditional,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.conditional import (
    CONDITIONAL_PLOTTED_HEADER,
    conditional_plotted_rows,
    plot_conditional_edges,
)
from attnspec.plotting.style import close
from attnspec.tables import to_markdown
from attnspec.verdicts import CLAIM_HEADER


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.conditional
    draws = iter([load_npz(path) for path in smk.input.draws])
    results = [[next(draws) for _ in range(cfg["draws"])] for _ in cfg["n_tokens"]]
    series = conditional_series(cfg["beta"], cfg["ratio"], cfg["n_tokens"], results)
    checks = [conditional_check(series, name) for name in COVARIANCES]
    figure = plot_conditional_edges(
        series, {check.covariance: judge_conditional(check) for check in checks}
    )
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(smk.output.plotted, CONDITIONAL_PLOTTED_HEADER, conditional_plotted_rows(series))
    claim = conditional_claim(checks, draws=cfg["draws"])
    write_csv(smk.output.claims, CLAIM_HEADER, [claim.as_row()])
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(
        smk.output.caption,
        caption
        + "\n\n"
        + to_markdown(CONDITIONAL_TABLE_HEADER, conditional_table_rows(series), digits=6)
        + "\n"
        + to_markdown(CLAIM_HEADER, [claim.as_row()], digits=6),
    )
    log.info("claim %s: %s (%s)", claim.claim_id, claim.verdict, claim.note)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
