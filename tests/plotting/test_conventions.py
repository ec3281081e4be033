"""Plotting conventions: one theme and palette, bands and histograms drawn by seaborn from the
figures' tidy tables (no hand-written quantile bands, no copied palette codes), and the journal
conventions of a figure (no suptitle, one letter per panel, no letter in a title)."""

import re

import pytest
from conftest import REPO

PACKAGE = REPO / "attnspec"
# The drawing: each paper room's plot_*.py, and the shared craft checks and tidy tables.
MODULES = sorted(
    [
        *PACKAGE.glob("papers/*/plot_*.py"),
        PACKAGE / "plotting" / "craft.py",
        PACKAGE / "plotting" / "tidy.py",
    ]
)
# Modules that draw bands over draws or histograms / distribution functions (issue 13's list:
# A1, A3, A4, A6, A7, B1, B3, B5, B6, C2, C3, C5 and paper D's spectra, D4 among them).
SEABORN_MODULES = {
    "papers/a/plot_stepwise.py",
    "papers/a/plot_bulk_laws.py",
    "papers/a/plot_edges.py",
    "papers/a/plot_perron.py",
    "papers/b/plot_sticking.py",
    "papers/b/plot_conditional.py",
    "papers/c/plot_degeneration.py",
    "papers/c/plot_pretrained.py",
    "papers/d/plot_multihead.py",
    "papers/d/plot_design_choices.py",
}


def name_of(module):
    return str(module.relative_to(PACKAGE))


@pytest.mark.parametrize("module", MODULES, ids=name_of)
def test_no_hand_written_quantile_bands(module):
    source = module.read_text()
    found = re.findall(r"\b(?:nan)?(?:quantile|percentile)\s*\(", source)
    assert not found, f"{module.name} computes quantiles ({found}): draw bands with seaborn"


@pytest.mark.parametrize("module", MODULES, ids=name_of)
def test_no_copied_palette_codes(module):
    codes = re.findall(r"#[0-9A-Fa-f]{6}\b", module.read_text())
    assert not codes, f"{module.name} copies colours {codes}: use attnspec.plotting.style"


def test_band_and_histogram_modules_use_seaborn():
    names = {name_of(p) for p in MODULES}
    assert len(MODULES) == 18 and SEABORN_MODULES <= names
    for name in SEABORN_MODULES:
        assert re.search(r"^import seaborn as sns", (PACKAGE / name).read_text(), flags=re.M), name


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


def _clean_figure():
    from attnspec.plotting.style import new_figure

    figure, axes = new_figure(1, 2, width=7.0, height=2.0)
    for ax in axes[0]:
        ax.plot([0, 1], [0, 1], label="line")
        ax.set_xlabel("x")
    axes[0, 0].legend(loc="upper left")
    return figure, axes


def test_a_clean_figure_passes_the_craft_checks():
    from attnspec.plotting.craft import craft_problems

    figure, _ = _clean_figure()
    assert craft_problems(figure) == []


@pytest.mark.parametrize(
    "defect, expected",
    [
        (lambda f, a: f.set_size_inches(9.3, 2.0), "width 9.30 in"),
        (lambda f, a: a[0, 1].set_xlabel("tiny", fontsize=5), "'tiny' is 5 pt"),
        (lambda f, a: a[0, 1].text(0.5, 0.5, "verdict box") and a[0, 1].text(0.5, 0.5, "again"),
         "'verdict box' and 'again' overlap"),
        (lambda f, a: a[0, 0].text(0.02, 0.95, "over the legend", va="top"), "crosses a legend"),
        (lambda f, a: f.suptitle("x" * 300), "leaves the canvas"),
        (lambda f, a: a[0, 1].cla(), "panel 1 is empty"),
    ],
)  # fmt: skip
def test_the_craft_checks_find_each_defect_a_figure_editor_reported(defect, expected):
    from attnspec.plotting.craft import craft_problems

    _assert_found(craft_problems, _clean_figure(), defect, expected)


def _assert_found(check, figure_and_axes, defect, expected):
    """``check`` reports ``expected`` once ``defect`` is applied to the figure."""
    figure, axes = figure_and_axes
    defect(figure, axes)
    problems = check(figure)
    assert any(expected in p for p in problems), problems


def _lettered_figure():
    """The clean two-panel figure with its panel letters and titles."""
    from attnspec.plotting.style import label_panels

    figure, axes = _clean_figure()
    for ax, title in zip(axes[0], ("edges", "gaps"), strict=True):
        ax.set_title(title)
    label_panels(axes[0])
    return figure, axes


def test_a_lettered_two_panel_figure_passes_the_convention_checks():
    from attnspec.plotting.craft import convention_problems, craft_problems

    figure, axes = _lettered_figure()
    assert convention_problems(figure) == [] and craft_problems(figure) == []
    letters = [t for ax in axes[0] for t in ax.texts]
    assert [t.get_text() for t in letters] == ["a", "b"]
    assert all(t.get_fontweight() == "bold" for t in letters)
    assert {t.get_fontsize() for t in letters} == {axes[0, 0].title.get_fontsize()}


def test_a_single_panel_gets_no_letter_and_needs_none():
    from attnspec.plotting.craft import convention_problems
    from attnspec.plotting.style import label_panels, new_figure

    figure, axes = new_figure(1, 1, width=3.4, height=2.0)
    axes[0, 0].plot([0, 1], [0, 1])
    label_panels(axes[0])
    assert not axes[0, 0].texts and convention_problems(figure) == []


def _second_letter_removed(f, a):
    (letter,) = a[0, 1].texts
    letter.remove()


@pytest.mark.parametrize(
    "defect, expected",
    [
        (lambda f, a: f.suptitle("Stable rank"), "suptitle 'Stable rank'"),
        (_second_letter_removed, "panel gaps carries 0 panel letters"),
        (lambda f, a: a[0, 1].set_title("(b) gaps"), "title '(b) gaps' begins with a panel letter"),
        (lambda f, a: a[0, 1].set_title("gaps", loc="left"), "letter 'b' crowds the title 'gaps'"),
        (lambda f, a: a[0, 0].set_title("(a, b) edges", loc="left"), "'(a, b) edges' begins"),
    ],
)
def test_the_convention_checks_find_each_defect(defect, expected):
    from attnspec.plotting.craft import convention_problems

    _assert_found(convention_problems, _lettered_figure(), defect, expected)


def test_each_line_style_has_one_meaning():
    from attnspec.plotting.style import LINE_STYLES

    assert set(LINE_STYLES) == {
        "limit law / theory",
        "alternative or quantile",
        "edge or threshold",
    }
    assert len(set(LINE_STYLES.values())) == len(LINE_STYLES)


def _covered_box(f, a):
    from matplotlib.offsetbox import AnchoredText

    a[0, 0].add_artist(AnchoredText("N beyond axis", loc="center"))  # A3's boxes over x+


def _text_on_a_point(f, a):
    a[0, 1].scatter([0.5], [0.5])
    a[0, 1].text(0.5, 0.5, "on a point", ha="center", va="center")


def _close_blues(f, a):
    """D3: blues of one map for independent, GQA and MQA on one axes."""
    a[0, 1].plot([0, 1], [1, 0], color=(0.30, 0.60, 0.80))
    a[0, 1].plot([0, 1], [0.5, 0.5], color=(0.35, 0.65, 0.85))


def _line_under_line(f, a):
    """C5(b): the local-attention control drawn exactly under the heads' curve."""
    a[0, 0].plot([0, 1], [0, 1], lw=2.0, label="heads")


@pytest.mark.parametrize(
    "defect, expected",
    [
        (lambda f, a: a[0, 1].text(0.5, 0.5, "on the line"), "text 'on the line' lies over 1"),
        (lambda f, a: a[0, 1].legend(loc="center"), "the legend lies over 1"),
        (_covered_box, "a box lies over 1"),
        (_text_on_a_point, "lies over 2"),
        (_line_under_line, "'line' is hidden under 'heads'"),
        (_close_blues, "colours differ by Delta E"),
    ],
)
def test_the_layering_checks_find_data_hidden_by_text_boxes_lines_or_colours(defect, expected):
    from attnspec.plotting.craft import layering_problems

    figure, axes = _clean_figure()
    assert layering_problems(figure) == []
    _assert_found(layering_problems, (figure, axes), defect, expected)


def test_a_line_beside_another_or_in_a_distinct_colour_is_not_reported():
    from attnspec.plotting.craft import colour_distance, layering_problems

    figure, axes = _clean_figure()
    axes[0, 0].plot([0, 1], [0.05, 1.05], lw=1.0, color="C1")  # 1 px above: visible, orange
    assert layering_problems(figure) == []
    assert colour_distance("white", "black") == pytest.approx(100.0, abs=0.01)


def test_a_figure_can_only_be_made_at_a_print_width():
    from attnspec.plotting.style import new_figure

    with pytest.raises(ValueError, match=r"width must be one of \(3.4, 7.0\)"):
        new_figure(1, 1, width=9.0, height=2.0)


def test_each_meaning_has_one_colour_and_each_colour_one_meaning():
    from matplotlib.colors import to_rgb

    from attnspec.plotting.style import COLOURS, SEQUENTIAL_MAPS

    rgb = {meaning: tuple(round(v, 3) for v in to_rgb(c)) for meaning, c in COLOURS.items()}
    assert len(set(rgb.values())) == len(rgb), rgb
    assert rgb["theory"] != rgb["data"] and rgb["gaussian_reference"] != rgb["theory"]
    assert len({name for name, *_ in SEQUENTIAL_MAPS.values()}) == len(SEQUENTIAL_MAPS)


@pytest.mark.parametrize("module", MODULES, ids=name_of)
def test_colours_come_from_the_meanings_defined_once(module):
    source = module.read_text()
    found = re.findall(r"PALETTE\[|colormaps\[|color_palette\(|cmap=\"(?!magma)", source)
    found += re.findall(r"colou?r=\"(?:\d?\.\d+|k|black|cyan|C\d)\"", source)
    assert not found, f"{module.name} picks colours itself ({found}): use style.COLOURS"


def test_the_committed_figures_are_one_or_two_columns_wide():
    import struct

    pngs = sorted((REPO / "figures").glob("paper*/*.png"))
    assert pngs
    for png in pngs:
        width_px = struct.unpack(">I", png.read_bytes()[16:20])[0]
        assert any(abs(width_px / 150 - w) < 0.01 for w in (3.4, 7.0)), (png.name, width_px / 150)


def test_a_hollow_marker_is_judged_by_its_edge_colour():
    """B2 (b): white-faced triangles in a beta's colour beside a grey guide line are one more
    series in the beta's colour, not a white series beside the grey."""
    from attnspec.plotting.craft import layering_problems

    figure, axes = _clean_figure()
    axes[0, 1].scatter([0.2], [0.8], marker="v", fc="white", ec="C1")
    axes[0, 1].plot([0, 1], [0.9, 0.9], color=(0.86, 0.86, 0.86))
    assert layering_problems(figure) == []
    axes[0, 1].scatter([0.3], [0.2], marker="v", fc="white", ec=(0.88, 0.88, 0.88))
    assert "colours differ by Delta E" in " ".join(layering_problems(figure))


def test_a_placed_legend_moves_off_the_data_or_makes_headroom_for_itself():
    """A2, B4, B6 at the CI preset's sizes: a legend at a fixed corner covered data that another
    preset left free; place_legend + settle_legends find a free place, stretching the y range
    when no corner is free."""
    import numpy as np

    from attnspec.plotting.craft import layering_problems
    from attnspec.plotting.placement import place_legend, settle_legends

    figure, axes = _clean_figure()
    ax = axes[0, 1]
    ax.plot([0, 0.3], [0.95, 0.95], label="across the top left")
    place_legend(ax, prefer="upper left")
    settle_legends(figure)
    assert layering_problems(figure) == [] and ax.get_legend()._loc != 2  # not upper left
    figure, axes = _clean_figure()
    ax = axes[0, 1]
    grid = np.linspace(0, 1, 11)
    for y in grid:  # data everywhere: no free corner
        ax.plot(grid, np.full_like(grid, y), lw=0.5, color="C0", label="_")
    ax.plot([], [], label="a key")
    low, high = ax.get_ylim()
    place_legend(ax, prefer="upper right")
    settle_legends(figure)
    assert layering_problems(figure) == [] and ax.get_ylim()[1] > high
