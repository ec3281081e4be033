"""The README's library example runs as printed and says what the README says it prints."""

import contextlib
import io
import re

from conftest import REPO


def test_library_example_runs_and_prints_what_the_readme_says():
    section = (REPO / "README.md").read_text().split("## Library\n")[1].split("\n## ")[0]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S)[1]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    top, edge, mp = (float(v) for v in printed.getvalue().splitlines()[0].split())
    empirical, limit = (float(v) for v in printed.getvalue().splitlines()[1].split())
    assert f"top non-Perron value {top:.2f} above x_+ = {edge:.2f}" in " ".join(section.split())
    assert f"empirical cdf {empirical:.3f} against nu_inf's {limit:.3f}" in " ".join(
        section.split()
    )
    assert top > edge > mp


def test_own_model_example_runs_and_prints_what_the_readme_says():
    section = (REPO / "README.md").read_text().split("## Library\n")[1].split("\n## ")[0]
    code = re.findall(r"```python\n(.*?)```", section, flags=re.S)[1]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    correlated, independent = printed.getvalue().split()
    text = " ".join(section.split())
    said = f"prints {correlated} for the correlated head and {independent} for the independent"
    assert said in text
    assert float(correlated) > float(independent)
