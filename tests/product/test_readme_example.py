"""The README's library examples run as printed and say what the README says they print."""

import contextlib
import io
import re

from conftest import REPO

LIBRARY = (REPO / "README.md").read_text().split("## Library\n")[1].split("\n## ")[0]
"""The README's Library section."""
SAID = " ".join(LIBRARY.split())
"""Its text on one line (the README wraps it)."""


def printed_by(example: int) -> str:
    """What the Library section's ``example``-th Python block prints."""
    code = re.findall(r"```python\n(.*?)```", LIBRARY, flags=re.S)[example]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    return printed.getvalue()


def test_library_example_runs_and_prints_what_the_readme_says():
    first, second = printed_by(0).splitlines()
    top, edge, mp = (float(v) for v in first.split())
    empirical, limit = (float(v) for v in second.split())
    assert f"top non-Perron value {top:.2f} above x_+ = {edge:.2f}" in SAID
    assert f"empirical cdf {empirical:.3f} against nu_inf's {limit:.3f}" in SAID
    assert top > edge > mp


def test_own_model_example_runs_and_prints_what_the_readme_says():
    correlated, independent = printed_by(1).split()
    assert (
        f"prints {correlated} for the correlated head and {independent} for the independent" in SAID
    )
    assert float(correlated) > float(independent)
