"""Paper D's figures, each assembled from its job's loaded inputs (the functions named in
:mod:`attnspec.papers.d.outputs`; arguments: :mod:`attnspec.workflow.jobs`): the draws by
configuration, their tidy tables, drawings, key tables and caption texts."""

import functools

from attnspec.papers.d.assemble_evidence import public_model_records, sharing_spectra
from attnspec.papers.d.assemble_tables import shown_verdicts
from attnspec.papers.d.design_choices import PANELS
from attnspec.papers.d.design_choices_plotted import design_choices_plotted_table
from attnspec.papers.d.design_choices_summary import (
    DESIGN_CHOICES_KEY_HEADER,
    design_choices_key_rows,
)
from attnspec.papers.d.multihead_evidence import sharing_laws
from attnspec.papers.d.multihead_findings import public_model_findings, sharing_findings
from attnspec.papers.d.multihead_plotted import (
    heads_plotted_table,
    public_model_plotted_table,
    sharing_plotted_table,
)
from attnspec.papers.d.multihead_summary import (
    HEADS_KEY_HEADER,
    PUBLIC_TABLE_HEADER,
    heads_key_rows,
    public_model_table_rows,
)
from attnspec.papers.d.plot_design_choices import plot_design_choices
from attnspec.papers.d.plot_multihead import plot_heads, plot_public_models, plot_sharing
from attnspec.papers.outputs import FigureParts


def public_models_figure(inputs, params, judged) -> FigureParts:
    """D1: relative W1 and KS of softmax against its same-weights Gaussian equivalent per table
    D.2 configuration, with the floor (two Gaussian equivalents), and below them the rows D.1
    that judge them; the comparison table as the caption's key table."""
    records, beta = public_model_records(inputs, params), params["beta"]
    return FigureParts(
        public_model_plotted_table(records, beta, judged),
        plot_public_models,
        [(PUBLIC_TABLE_HEADER, public_model_table_rows(records, beta, shown_verdicts(judged)))],
        public_model_findings(records, beta),
    )


def heads_figure(inputs, params, judged) -> FigureParts:
    """D2: the limit law against the softmax and Gaussian-equivalent spectra for several head
    counts h, with the KS of each (stage, h) to the law."""
    settings = params["settings"]
    records = dict(zip(settings["head_counts"], inputs["draws"], strict=True))
    return FigureParts(
        heads_plotted_table(records, settings),
        functools.partial(plot_heads, bins=settings["histogram_bins"]),
        [(HEADS_KEY_HEADER, heads_key_rows(records, settings))],
    )


def sharing_figure(inputs, params, judged) -> FigureParts:
    """D3: independent heads, MQA/GQA sharing and K = V tying against the independent-head and
    tied laws, with what the data show (the verdicts of rows D.2/<scheme> and D.3/tied)."""
    settings = params["settings"]
    spectra, laws = sharing_spectra(inputs, settings), sharing_laws(settings)
    return FigureParts(
        sharing_plotted_table(spectra, laws),
        functools.partial(plot_sharing, bins=settings["histogram_bins"]),
        intro=sharing_findings(spectra, laws),
    )


def figure_d1_figure(inputs, params, judged) -> FigureParts:
    """D4: paper D's figure D.1 as published, softmax and Gaussian-equivalent spectra against
    the limit laws in three panels, with each condition's law and KS distances."""
    settings = params["settings"]
    records = dict(zip(PANELS, inputs["draws"], strict=True))
    return FigureParts(
        design_choices_plotted_table(records, settings),
        functools.partial(plot_design_choices, bins=settings["histogram_bins"]),
        [(DESIGN_CHOICES_KEY_HEADER, design_choices_key_rows(records, settings))],
    )
