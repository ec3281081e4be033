"""Table A-T2: moments and distances of the stepwise models, and the claim A.3 verdict row."""

from attnspec.experiments.gaussian_equivalence import gaussian_equivalence_check
from attnspec.experiments.stepwise import STEPWISE_TABLE_HEADER, stepwise_table_rows
from attnspec.io import configure_logging, load_npz, rule_caption, write_csv, write_text
from attnspec.legacy_verdicts import CLAIM_HEADER
from attnspec.tables import to_latex, to_markdown

TREND_HEADER = ("ell", "mean_D_AL", "mean_D_LL", "excess")


def spectra(paths):
    return [load_npz(path)["squared_singular_values"] for path in paths]


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.stepwise
    rows = stepwise_table_rows(load_npz(smk.input.summary))
    draws = smk.params.trend_draws
    trend = {
        ell: (
            spectra(smk.input.trend_attention[i * draws : (i + 1) * draws]),
            spectra(smk.input.trend_linear[i * draws : (i + 1) * draws]),
        )
        for i, ell in enumerate(smk.params.trend_ells)
    }
    check, trend_rows = gaussian_equivalence_check(
        spectra(smk.input.attention),
        spectra(smk.input.linear),
        n_tokens=cfg["n_tokens"],
        beta=cfg["beta"],
        trend=trend,
    )
    log.info("claim A.3: %s (%s)", check.verdict, check.note)
    write_csv(smk.output.csv, STEPWISE_TABLE_HEADER, rows)
    write_csv(smk.output.claims, CLAIM_HEADER, [check.as_row()])
    caption = rule_caption(smk)
    write_text(
        smk.output.md,
        "\n".join(
            [
                caption,
                to_markdown(STEPWISE_TABLE_HEADER, rows),
                to_markdown(TREND_HEADER, trend_rows),
                f"Claim A.3: **{check.verdict}**. {check.note}.",
                "",
            ]
        ),
    )
    latex = to_latex(
        STEPWISE_TABLE_HEADER,
        rows,
        caption="Moments and distances of the stepwise models of figure A1 (paper A, A-T2).",
        label="tab:A-T2-stepwise",
    )
    write_text(smk.output.tex, latex)


main(snakemake)  # noqa: F821
