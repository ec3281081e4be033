"""Table D-T2: normalised moments of paper D's limit laws in closed form and from the
S-transform series, against the simulated spectra of figures D2 (every h, both stages) and D3
(every scheme at the largest n), as CSV (exact), Markdown and LaTeX."""

import pandas as pd

from attnspec.papers.d.draws import configured_sharing_shape
from attnspec.papers.d.summary import MOMENTS_HEADER, heads_moment_rows, sharing_moment_rows
from attnspec.tables import to_latex, to_markdown
from attnspec.workflow.io import configure_logging, load_npz, rule_caption, write_table, write_text
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    heads, sharing = smk.params.heads, smk.params.sharing
    head_records = {
        h: load_npz(path) for h, path in zip(heads["head_counts"], smk.input.heads, strict=True)
    }
    largest = max(sharing["n_tokens"])
    sharing_records = {
        scheme: load_npz(path)
        for scheme, path in zip(sharing["schemes"], smk.input.sharing, strict=True)
    }
    shapes = {
        scheme: configured_sharing_shape(scheme, sharing, largest) for scheme in sharing["schemes"]
    }
    rows = heads_moment_rows(head_records, heads)
    rows += sharing_moment_rows(sharing_records, shapes, sharing["beta"])
    write_table(smk.output.csv, pd.DataFrame(rows, columns=MOMENTS_HEADER))
    caption = rule_caption(smk)
    write_text(smk.output.md, caption + "\n" + to_markdown(MOMENTS_HEADER, rows, digits=5))
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
    write_text(smk.output.tex, latex)
    log.info("%d rows", len(rows))


run_staged(main, snakemake)  # noqa: F821
