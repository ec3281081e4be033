"""Table C-T1: stable-rank fits (CSV, Markdown, LaTeX) and the verdict rows of claims C.1-C.4."""

from attnspec.experiments.degeneration_summary import (
    STABLE_RANK_TABLE_HEADER,
    bulk_series,
    collect_stable_ranks,
    counts_by_size,
    stable_rank_table_rows,
)
from attnspec.experiments.degeneration_verdicts import degeneration_claims
from attnspec.io import configure_logging, load_npz, rule_caption, write_csv, write_text
from attnspec.legacy_verdicts import CLAIM_HEADER
from attnspec.models.softmax import MASKS
from attnspec.tables import to_latex, to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    params = smk.params
    model, spikes = params.model, params.model["spikes"]
    canonical = (params.stable_rank["n_tokens"], [load_npz(p) for p in smk.input.canonical])
    isotropic = (params.isotropic["n_tokens"], [load_npz(p) for p in smk.input.isotropic])
    gaussian = (params.gaussian_model["n_tokens"], [load_npz(p) for p in smk.input.gaussian])
    data = collect_stable_ranks(
        canonical,
        isotropic,
        gaussian,
        params.stable_rank["profiles"],
        params.isotropic["profile"],
    )
    rows = stable_rank_table_rows(
        [*data.canonical, *data.isotropic, *data.gaussian],
        data.cesaro,
        spikes=spikes,
        beta=params.gaussian_model["beta"],
    )
    write_csv(smk.output.csv, STABLE_RANK_TABLE_HEADER, rows)
    caption = rule_caption(smk)
    write_text(smk.output.md, caption + "\n" + to_markdown(STABLE_RANK_TABLE_HEADER, rows))
    write_text(
        smk.output.tex,
        to_latex(
            STABLE_RANK_TABLE_HEADER,
            rows,
            caption="Stable-rank limits and slopes against $\\log n$ (paper C, C-T1).",
            label="tab:C-T1-stable-rank",
        ),
    )
    bulk_jobs = counts_by_size(load_npz(smk.input.bulk), params.bulk["n_tokens"])
    bulk = [
        bulk_series(profile, mask, params.bulk["n_tokens"], bulk_jobs, spikes)
        for profile in params.bulk["profiles"]
        for mask in MASKS
    ]
    claims = degeneration_claims(
        canonical,
        bulk,
        data,
        isotropic,
        profiles=params.stable_rank["profiles"],
        spikes=spikes,
        kappa=model["kappa"],
    )
    write_csv(smk.output.claims, CLAIM_HEADER, [claim.as_row() for claim in claims])
    for claim in claims:
        log.info("%s: %s (%s)", claim.claim_id, claim.verdict, claim.note)


main(snakemake)  # noqa: F821
