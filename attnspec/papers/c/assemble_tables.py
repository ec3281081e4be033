"""Paper C's tables C-T1 and C-T2, each assembled from its job's loaded inputs (named in
:mod:`attnspec.papers.c.outputs`; arguments: :mod:`attnspec.workflow.jobs`)."""

from attnspec.claims.dashboard import verdict_table
from attnspec.papers.c.degeneration_summary import (
    STABLE_RANK_TABLE_HEADER,
    collect_stable_ranks,
    stable_rank_table_rows,
)
from attnspec.papers.c.pretrained_evidence import full_rank_distances
from attnspec.papers.c.pretrained_summary import (
    POWER_HEADER,
    TESTS_HEADER,
    power_rows,
    table_header,
    table_rows,
    tests_rows,
    tests_text,
)
from attnspec.papers.outputs import TableParts
from attnspec.tables import to_latex, to_markdown

STABLE_RANK_CLAIMS = ("C.1", "C.2", "C.3", "C.4")
"""The claims whose verdicts table C-T1's caption lists (the canonical model's)."""

PRETRAINED_ROWS = ("C.5/", "C.6/")
"""The row-id prefixes of the verdicts table C-T2's caption lists (the pretrained model's)."""


def stable_ranks_and_rows(inputs, params) -> tuple:
    """The stable ranks of the canonical, isotropic and Gaussian models and the Cesaro matrix
    from a job's loaded inputs, and table C-T1's rows of them (figure C3 shows both)."""
    data = collect_stable_ranks(
        (params["stable_rank"]["n_tokens"], inputs["canonical"]),
        (params["isotropic"]["n_tokens"], inputs["isotropic"]),
        (params["gaussian_model"]["n_tokens"], inputs["gaussian"]),
        params["stable_rank"]["profiles"],
        params["isotropic"]["profile"],
    )
    rows = stable_rank_table_rows(
        [*data.canonical, *data.isotropic, *data.gaussian],
        data.cesaro,
        spikes=params["model"]["spikes"],
        beta=params["gaussian_model"]["beta"],
        gaussian_reference=inputs["reference"],
    )
    return data, rows


def stable_rank_table(inputs, params, judged) -> TableParts:
    """C-T1: stable-rank limits and slopes with their derived finite-n references, and the
    verdicts of claims C.1-C.4."""
    _, rows = stable_ranks_and_rows(inputs, params)
    judged = [row for row in judged if row["claim_id"] in STABLE_RANK_CLAIMS]
    markdown = to_markdown(STABLE_RANK_TABLE_HEADER, rows) + to_markdown(*verdict_table(judged))
    latex = to_latex(
        STABLE_RANK_TABLE_HEADER,
        rows,
        caption="Stable-rank limits and slopes against $\\log n$ with their derived finite-n "
        "references (paper C, C-T1).",
        label="tab:C-T1-stable-rank",
    )
    return TableParts(STABLE_RANK_TABLE_HEADER, rows, markdown, latex)


def pretrained_table(inputs, params, judged) -> TableParts:
    """C-T2: per-layer/head diagnostics of the pretrained model, with the two-sample tests of the
    eigen-angle distances, their power and the verdicts of claims C.5 and C.6."""
    top_k = params["pretrained"]["top_k"]
    full_rank = inputs["model_full_rank"]
    iso_full_rank = inputs["isotropic_full_rank"]
    header = table_header(top_k)
    rows = table_rows(
        full_rank, inputs["model_long"], iso_full_rank, inputs["isotropic_long"], top_k=top_k
    )
    tests = inputs["tests"]
    sizes = {
        "model": full_rank_distances(full_rank).size,
        "aligned": full_rank_distances(inputs["control_aligned"]).size,
        "local": full_rank_distances(inputs["control_local"]).size,
        "null": full_rank_distances(iso_full_rank).size // 2,
    }
    judged = [row for row in judged if row["row_id"].startswith(PRETRAINED_ROWS)]
    extra = [(TESTS_HEADER, tests_rows(tests, sizes)), (POWER_HEADER, power_rows(tests))]
    markdown = "".join(
        to_markdown(h, r) for h, r in [(header, rows), *extra, verdict_table(judged)]
    )
    latex = "\n".join(
        [
            to_latex(
                header,
                rows,
                caption="Per-layer/head score diagnostics of all-MiniLM-L6-v2 (paper C, C-T2).",
                label="tab:C-T2-pretrained",
            ),
            to_latex(
                *extra[0],
                caption="Two-sample tests of the per-head eigen-angle distances against the Haar "
                "reference (paper C, C-T2).",
                label="tab:C-T2-tests",
            ),
        ]
    )
    return TableParts(header, rows, tests_text(tests) + "\n" + markdown, latex)
