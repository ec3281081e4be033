"""The rooms' outputs lists (attnspec/papers/<room>/outputs.py) against everything that names a
figure, table or evidence file: the rules that make them, the report captions, the notebooks,
the claims catalogue; and the generic jobs' loading of inputs."""

import re

import numpy as np
import pytest
from conftest import REPO

from attnspec.claims.catalogue import EVIDENCE as CATALOGUE
from attnspec.papers.outputs import (
    Evidence,
    Figure,
    FigureParts,
    Table,
    find_output,
    names_of,
    outputs_of,
    room_outputs,
)
from attnspec.papers.registry import ROOMS
from attnspec.workflow.io import save_npz, write_table
from attnspec.workflow.jobs import job_inputs, job_params

PAPERS = [room.upper() for room in ROOMS]
ENTRIES = [entry for room in ROOMS for entry in room_outputs(room)]
GENERIC = {Figure: "figure.py", Table: "table.py", Evidence: "evidence.py"}


def rules_running(script: str) -> dict[str, list[str]]:
    """output_name -> the rules that run scripts/<script> with it."""
    found = {}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"^rule ", path.read_text(), flags=re.M)[1:]:
            if f'f"{{SCRIPTS}}/{script}"' in block:
                name = re.search(r'\n        output_name="([^"]+)",', block)
                found.setdefault(name[1] if name else None, []).append(block.split(":")[0])
    return found


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_each_entry_names_an_assembling_function(entry):
    assert callable(entry.assembler())
    assert find_output(entry.name, type(entry)) is entry


def test_names_are_unique_and_figures_and_tables_carry_their_paper():
    for kind in GENERIC:
        names = [e.name for e in ENTRIES if type(e) is kind]
        assert len(names) == len(set(names)), kind
    for paper in PAPERS:
        for entry in outputs_of(paper, Figure) + outputs_of(paper, Table):
            assert entry.name.startswith(paper), entry.name


def test_unknown_name_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="no figure called 'Z1-none'.*B1-sticking"):
        find_output("Z1-none", Figure)


@pytest.mark.parametrize("kind", list(GENERIC), ids=[k.__name__ for k in GENERIC])
def test_each_entry_has_exactly_one_rule_and_each_rule_an_entry(kind):
    script = GENERIC[kind]
    rules = rules_running(script)
    listed = {e.name for e in ENTRIES if type(e) is kind}
    missing, unlisted = sorted(listed - set(rules)), sorted(set(rules) - listed)
    assert not missing, f"no rule runs scripts/{script} with output_name= {missing}"
    assert not unlisted, f"rules run scripts/{script} for unlisted entries: {unlisted}"
    repeated = {name: names for name, names in rules.items() if len(names) > 1}
    assert not repeated, f"several rules make one entry: {repeated}"


@pytest.mark.parametrize("paper", PAPERS)
def test_figures_and_tables_have_their_caption_and_their_place_in_the_notebook(paper):
    shown = (REPO / "workflow" / "notebooks" / f"paper{paper}.py").read_text()
    captions = REPO / "workflow" / "report" / f"paper{paper}"
    figures, tables = names_of(paper, Figure), names_of(paper, Table)
    written = {p.stem for p in captions.glob("*.rst")}
    missing = sorted(set(figures + tables) - written)
    assert not missing, f"no caption workflow/report/paper{paper}/<name>.rst for {missing}"
    assert not written - set(figures + tables), f"captions of unlisted outputs in {captions}"
    cells = re.findall(r'paper\.figure\("([^"]+)"\)', shown)
    assert cells == figures, f"workflow/notebooks/paper{paper}.py shows {cells}, listed {figures}"
    cells = re.findall(r'paper\.table\("([^"]+)"\)', shown)
    assert cells == tables, f"workflow/notebooks/paper{paper}.py shows {cells}, listed {tables}"


def test_the_catalogue_names_listed_figures_and_tables_only():
    listed = {e.name for e in ENTRIES if type(e) in (Figure, Table)}
    named = {name for names in CATALOGUE.values() for name in names}
    assert named <= listed, named - listed


class FakeNamedlist:
    """Snakemake's Namedlist as the generic jobs read it: keys() and attributes."""

    def __init__(self, **items):
        self._items = items
        for name, value in items.items():
            setattr(self, name, value)

    def keys(self):
        return list(self._items)


class FakeJob:
    def __init__(self, inputs, params):
        self.input, self.params = FakeNamedlist(**inputs), FakeNamedlist(**params)


def test_job_inputs_load_npz_and_csv_keep_lists_and_skip_the_writers_inputs(tmp_path):
    import pandas as pd

    save_npz(tmp_path / "a.npz", x=np.arange(3.0))
    write_table(tmp_path / "t.csv", pd.DataFrame({"k": [1, 2]}))
    (tmp_path / "c.rst").write_text("caption")
    job = FakeJob(
        {
            "draws": [str(tmp_path / "a.npz")] * 2,
            "summary": str(tmp_path / "a.npz"),
            "table": str(tmp_path / "t.csv"),
            "model": str(tmp_path / "c.rst"),
            "caption": str(tmp_path / "c.rst"),
            "claims": str(tmp_path / "t.csv"),
            "paper_scale": [],
        },
        {"output_name": "B1-sticking", "beta": 1.0},
    )
    loaded = job_inputs(job)
    assert sorted(loaded) == ["draws", "model", "summary", "table"]
    assert [list(d["x"]) for d in loaded["draws"]] == [[0.0, 1.0, 2.0]] * 2
    assert list(loaded["summary"]["x"]) == [0.0, 1.0, 2.0]
    assert loaded["table"] == [{"k": "1"}, {"k": "2"}]
    assert loaded["model"] == str(tmp_path / "c.rst")
    assert job_params(job) == {"output_name": "B1-sticking", "beta": 1.0}


def test_figure_parts_defaults_are_the_writers():
    parts = FigureParts(plotted=None, draw=print)
    assert (parts.tables, parts.intro, parts.digits) == ((), "\n\n", 4)
