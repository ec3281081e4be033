"""Paper D's tables D-T1 and D-T2, each assembled from its job's loaded inputs (named in
:mod:`attnspec.papers.d.outputs`; arguments: :mod:`attnspec.workflow.jobs`)."""

from attnspec.claims.dashboard import verdict_label
from attnspec.papers.d.assemble_evidence import public_model_records
from attnspec.papers.d.multihead import configured_sharing_shape
from attnspec.papers.d.multihead_summary import (
    MOMENTS_HEADER,
    PUBLIC_TABLE_HEADER,
    heads_moment_rows,
    public_model_table_rows,
    sharing_moment_rows,
)
from attnspec.papers.outputs import TableParts
from attnspec.tables import to_latex, to_markdown


def shown_verdicts(judged) -> dict:
    """The verdict of each judged row by row id as its label shows it (with "fragile" and the
    alternative when unstable): table D-T1's and figure D1's verdict column."""
    return {row["row_id"]: verdict_label(row).split(": ", 1)[1] for row in judged}


def public_models_table(inputs, params, judged) -> TableParts:
    """D-T1: the table D.2 comparison, ours and the floor (two Gaussian equivalents) beside the
    published numbers, with the verdicts of rows D.1/<model>/published-<metric> and
    D.1/<model>/<metric>."""
    records = public_model_records(inputs, params)
    rows = public_model_table_rows(records, params["beta"], shown_verdicts(judged))
    latex = to_latex(
        PUBLIC_TABLE_HEADER,
        rows,
        caption=(
            "Softmax against its same-weights Gaussian equivalent at public-model dimensions "
            "(paper D, table D.2): relative $W_1$ and KS, and the floor (two Gaussian equivalents "
            "of the same weights), mean and Student-t 95 \\% half-width over draws, beside the "
            "published values, with the verdicts of the rows judging the published means (paper "
            "D's claim) and of those judging the distance beyond the floor (beyond the paper) "
            "(D-T1)."
        ),
        label="tab:D-T1-public-models",
        digits=4,
    )
    return TableParts(
        PUBLIC_TABLE_HEADER, rows, to_markdown(PUBLIC_TABLE_HEADER, rows, digits=4), latex
    )


def moments_table(inputs, params, judged) -> TableParts:
    """D-T2: normalised moments of paper D's limit laws in closed form and from the S-transform
    series, against the simulated spectra of figures D2 (every h, both stages) and D3 (every
    scheme at the largest n)."""
    heads, sharing = params["heads"], params["sharing"]
    head_records = dict(zip(heads["head_counts"], inputs["heads"], strict=True))
    largest = max(sharing["n_tokens"])
    sharing_records = dict(zip(sharing["schemes"], inputs["sharing"], strict=True))
    shapes = {
        scheme: configured_sharing_shape(scheme, sharing, largest) for scheme in sharing["schemes"]
    }
    rows = heads_moment_rows(head_records, heads)
    rows += sharing_moment_rows(sharing_records, shapes, sharing["beta"])
    latex = to_latex(
        MOMENTS_HEADER,
        rows,
        caption=(
            "Normalised moments of paper D's limit laws: its closed forms, the S-transform "
            "series and the simulated softmax and Gaussian-equivalent spectra (mean and "
            "Student-t 95 \\% half-width over draws) (D-T2)."
        ),
        label="tab:D-T2-moments",
        digits=5,
    )
    return TableParts(MOMENTS_HEADER, rows, to_markdown(MOMENTS_HEADER, rows, digits=5), latex)
