"""Figure A6: |s_1(A) - 1| and the stable rank against ell (PDF, PNG, CSV), caption, claim A.2."""

from pathlib import Path

from attnspec.experiments.perron import (
    PERRON_TABLE_HEADER,
    judge_perron,
    perron_check,
    perron_claim,
    perron_series,
    perron_table_rows,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.perron import perron_plotted_rows, plot_perron
from attnspec.plotting.style import close
from attnspec.tables import to_markdown
from attnspec.verdicts import CLAIM_HEADER

PLOTTED_HEADER = ("panel", "beta", "series", "n_tokens", "draw", "y")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.perron
    results = iter([load_npz(path) for path in smk.input.points])
    series = [
        perron_series(beta, cfg["n_tokens"], [next(results) for _ in cfg["n_tokens"]])
        for beta in cfg["betas"]
    ]
    checks = [perron_check(s) for s in series]
    verdicts = [judge_perron(check) for check in checks]
    figure = plot_perron(series, verdicts)
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(smk.output.plotted, PLOTTED_HEADER, perron_plotted_rows(series))
    claim = perron_claim(checks, draws=cfg["draws"])
    write_csv(smk.output.claims, CLAIM_HEADER, [claim.as_row()])
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(
        smk.output.caption,
        caption
        + "\n\n"
        + to_markdown(PERRON_TABLE_HEADER, perron_table_rows(series))
        + "\n"
        + to_markdown(CLAIM_HEADER, [claim.as_row()]),
    )
    log.info("claim %s: %s (%s)", claim.claim_id, claim.verdict, claim.note)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
