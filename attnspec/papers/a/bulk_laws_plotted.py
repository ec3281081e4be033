"""Figures A3 and A7's tidy tables (paper A): the bulk of every draw, the laws' densities, edges
and edge-region fractions, and the distances, one row per plotted value."""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.papers.a.bulk_laws_summary import attention_bulk


def bulk_laws_plotted_table(
    summaries: Sequence[Mapping],
    attention: Sequence[Sequence[np.ndarray]],
    linear: Sequence[Sequence[np.ndarray]],
):
    """Figure A3's tidy table (a pandas DataFrame), columns ``kind``, ``series``, ``beta``,
    ``model``, ``draw``, ``x``, ``value``, per beta:

    - data ``bulk``: every value of every draw of the attention bulk and of Y_lin (``model``,
      ``draw``, ``value``), the histograms and the edge-region fractions;
    - theory ``nu_inf_density`` / ``mp_density`` and ``nu_inf_fraction_above`` /
      ``mp_fraction_above`` (``x``, ``value``): the laws; ``x_plus`` and ``mp_edge``
      (= 4 theta1), ``nu_inf_mass_above_4theta1`` (the law's mass above 4 theta1);
    - statistic ``mass_above_4theta1`` per draw (``model`` attention or linear), the statistic
      of row A.4; ``pooled_ks_to_<law>`` / ``pooled_w1_to_<law>`` (law nu_inf or mp; ``model``
      attention), the pooled distances of the attention bulk.

    ``summaries``: :func:`summarise_bulk_laws` of each beta, from the draws ``attention`` and
    ``linear`` (one sequence of spectra per beta)."""
    import pandas as pd

    blocks = []
    for summary, attention_draws, linear_draws in zip(summaries, attention, linear, strict=True):
        beta = float(summary["beta"])
        for model, draws in (("attention", attention_draws), ("linear", linear_draws)):
            for draw, spectrum in enumerate(draws):
                values = attention_bulk(spectrum) if model == "attention" else spectrum
                blocks.append(
                    pd.DataFrame(
                        {"kind": "data", "series": "bulk", "beta": beta, "model": model,
                         "draw": draw, "value": np.asarray(values, dtype=np.float64)}
                    )
                )  # fmt: skip
        for law in ("nu_inf", "mp"):
            curves = (
                (f"{law}_density", summary["theory_x"], summary[f"density_{law}"]),
                (f"{law}_fraction_above", summary["survival_theory_x"], summary[f"survival_{law}"]),
            )
            blocks += [
                pd.DataFrame({"kind": "theory", "series": series, "beta": beta, "x": x, "value": y})
                for series, x, y in curves
            ]
        scalars = [
            ("theory", "x_plus", None, float(summary["x_plus"])),
            ("theory", "mp_edge", None, float(summary["mp_edge"])),
            ("theory", "nu_inf_mass_above_4theta1", None, float(summary["edge_mass_theory"])),
        ] + [
            ("statistic", f"pooled_{distance}_to_{law}", "attention",
             float(summary[f"pooled_{distance}_attention_{law}"]))
            for distance in ("ks", "w1")
            for law in ("nu_inf", "mp")
        ]  # fmt: skip
        blocks.append(
            pd.DataFrame(scalars, columns=["kind", "series", "model", "value"]).assign(beta=beta)
        )
        for model in ("attention", "linear"):
            masses = np.asarray(summary[f"edge_mass_{model}"], dtype=np.float64)
            blocks.append(
                pd.DataFrame(
                    {"kind": "statistic", "series": "mass_above_4theta1", "beta": beta,
                     "model": model, "draw": np.arange(masses.size), "value": masses}
                )
            )  # fmt: skip
    columns = ["kind", "series", "beta", "model", "draw", "x", "value"]
    table = pd.concat(blocks, ignore_index=True).reindex(columns=columns)
    return table.astype({"draw": "Int64"})


def ratio_panel_name(panel: Mapping) -> str:
    """Short identifier of an A7 panel: gaussian-dqk<d_qk> or literal-d<d>-dqk<d_qk>."""
    if str(panel["sampler"]) == "literal":
        return f"literal-d{int(panel['d_model'])}-dqk{int(panel['d_qk'])}"
    return f"gaussian-dqk{int(panel['d_qk'])}"


def ratios_plotted_table(panels: Sequence[Mapping], attention: Sequence[Sequence[np.ndarray]]):
    """Figure A7's tidy table (a pandas DataFrame), columns ``kind``, ``series``, then the
    panel's identifiers ``panel`` (:func:`ratio_panel_name`), ``sampler``, ``d_model`` (empty
    for the gaussian sampler), ``d_qk``, ``c``, then ``draw``, ``x``, ``value``, per panel:

    - data ``bulk``: every value of every draw (``draw``, ``value``);
    - theory ``nu_inf_density`` and, for c != 1, ``nu_inf_swapped_ratio_density`` (nu_inf at
      1/c; ``x``, ``value``); ``x_plus``; ``gap_start`` / ``gap_end`` of each internal gap of
      the support;
    - statistic ``ks_to_nu_inf``, ``w1_to_nu_inf`` and ``ks_to_nu_inf_swapped_ratio``, the
      pooled distances.

    ``panels``: :func:`summarise_ratio_panel` of each panel, from the draws ``attention`` (one
    sequence of spectra per panel)."""
    import pandas as pd

    blocks = []
    for panel, draws in zip(panels, attention, strict=True):
        c = float(panel["ratio"])
        literal = str(panel["sampler"]) == "literal"
        key = {
            "panel": ratio_panel_name(panel),
            "sampler": str(panel["sampler"]),
            "d_model": int(panel["d_model"]) if literal else None,
            "d_qk": int(panel["d_qk"]),
            "c": c,
        }
        rows = [
            pd.DataFrame({"kind": "data", "series": "bulk", "draw": draw,
                          "value": attention_bulk(spectrum)})
            for draw, spectrum in enumerate(draws)
        ]  # fmt: skip
        curves = [("nu_inf_density", panel["density_nu_inf"])]
        if c != 1.0:
            curves.append(("nu_inf_swapped_ratio_density", panel["density_swapped"]))
        rows += [
            pd.DataFrame({"kind": "theory", "series": series, "x": panel["theory_x"], "value": y})
            for series, y in curves
        ]
        support = panel["support"]
        scalars = [("theory", "x_plus", float(panel["x_plus"]))]
        for (_, gap_start), (gap_end, _) in zip(support[:-1], support[1:], strict=True):
            scalars += [("theory", "gap_start", float(gap_start)),
                        ("theory", "gap_end", float(gap_end))]  # fmt: skip
        scalars += [
            ("statistic", "ks_to_nu_inf", float(panel["ks"])),
            ("statistic", "w1_to_nu_inf", float(panel["w1"])),
            ("statistic", "ks_to_nu_inf_swapped_ratio", float(panel["ks_swapped"])),
        ]
        rows.append(pd.DataFrame(scalars, columns=["kind", "series", "value"]))
        blocks.append(pd.concat(rows, ignore_index=True).assign(**key))
    columns = ["kind", "series", "panel", "sampler", "d_model", "d_qk", "c", "draw", "x", "value"]
    table = pd.concat(blocks, ignore_index=True).reindex(columns=columns)
    return table.astype({"d_model": "Int64", "d_qk": "Int64", "draw": "Int64"})
