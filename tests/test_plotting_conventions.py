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


@pytest.mark.parametrize(
    "low, high",
    [(8, 19), (0.5, 200), (1e-6, 1e3), (10.2, 10.8), (2.1, 9.5), (0.003, 0.02), (1, 1e12),
     (0.9, 1.1), (1e-300, 10), (64, 256)],
)  # fmt: skip
def test_a_log_axis_gets_between_two_and_six_labelled_ticks_in_view(low, high):
    from attnspec.plotting.style import MAX_LOG_LABELS, ReadableLogFormatter, log_ticks

    ticks = log_ticks(low, high)
    shown = ticks[(ticks >= low) & (ticks <= high)]
    assert 2 <= shown.size <= MAX_LOG_LABELS, ticks
    assert len(set(ReadableLogFormatter().format_ticks(shown))) == shown.size  # distinct


def test_log_labels_of_one_axis_are_all_plain_or_all_powers_of_ten():
    from attnspec.plotting.style import ReadableLogFormatter

    formatter = ReadableLogFormatter()
    assert formatter.format_ticks([0.002, 1.0, 500.0]) == ["0.002", "1", "500"]
    assert formatter.format_ticks([1e-6, 2e-5, 0.1, 2e5]) == [
        "$10^{-6}$", r"$2\times10^{-5}$", "$10^{-1}$", r"$2\times10^{5}$",
    ]  # fmt: skip


def test_the_readability_check_finds_a_log_axis_with_one_label():
    from matplotlib.ticker import FixedLocator

    from attnspec.plotting.style import log_axis, new_figure, unreadable_log_axes

    figure, axes = new_figure(1, 2, width=3.4, height=1.5)
    for ax in axes[0]:
        ax.plot([1, 2], [8.0, 19.0])
        log_axis(ax.yaxis)
    axes[0, 1].yaxis.set_major_locator(FixedLocator([10.0]))  # the B1 defect: one label
    axes[0, 1].set_title("one label")
    figure.canvas.draw()
    assert unreadable_log_axes(figure) == ["one label y"]
