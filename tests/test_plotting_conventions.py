"""Plotting conventions: one theme and palette, bands and histograms drawn by seaborn from the
figures' tidy tables (no hand-written quantile bands, no copied palette codes)."""

import re

import pytest
from conftest import REPO

PLOTTING = REPO / "attnspec" / "plotting"
MODULES = sorted(p for p in PLOTTING.glob("*.py") if p.name not in ("__init__.py", "style.py"))
# Modules that draw bands over draws or histograms / distribution functions (issue 13's list:
# A1, A3, A4, A6, A7, B1, B3, B5, B6, C2, C3, C5 and paper D's spectra).
SEABORN_MODULES = {
    "stepwise.py",
    "bulk_laws.py",
    "edges.py",
    "perron.py",
    "sticking.py",
    "conditional.py",
    "degeneration.py",
    "pretrained.py",
    "multihead.py",
}


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_no_hand_written_quantile_bands(module):
    source = module.read_text()
    found = re.findall(r"\b(?:nan)?(?:quantile|percentile)\s*\(", source)
    assert not found, f"{module.name} computes quantiles ({found}): draw bands with seaborn"


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_no_copied_palette_codes(module):
    codes = re.findall(r"#[0-9A-Fa-f]{6}\b", module.read_text())
    assert not codes, f"{module.name} copies colours {codes}: use attnspec.plotting.style"


def test_band_and_histogram_modules_use_seaborn():
    names = {p.name for p in MODULES}
    assert SEABORN_MODULES <= names
    for name in SEABORN_MODULES:
        assert re.search(r"^import seaborn as sns", (PLOTTING / name).read_text(), flags=re.M), name


def test_the_theme_is_set_in_one_place():
    for module in MODULES:
        assert "set_theme(" not in module.read_text(), f"{module.name} sets its own theme"
