"""Figure A8 (theory only): the numbers of its tidy table against independent evaluations: the
densities integrate to 1 with the first two moments of papers.md section 2, agree with the
R-transform route, the edges are the library's edge solvers, and the distances of nu_inf from
its MP surrogate agree with a closed form, a quadrature of the other route and the MP cdf."""

import numpy as np
import pytest
from scipy.integrate import quad

from attnspec.papers.a.limit_law_plotted import limit_law_plotted_table
from attnspec.papers.a.limit_law_summary import (
    BETA_GRID_SERIES,
    LIMIT_LAW_TABLE_HEADER,
    beta_grid_parts,
    limit_law_table_rows,
    scaled_grid,
)
from attnspec.theory import (
    NuInfinity,
    SymmetrisedLinearModel,
    bulk_edge,
    edge_large_beta,
    edge_small_beta,
)

BETAS, RATIOS, RATIO_BETA = [0.5, 1.0, 2.0], [0.5, 2.0], 1.0
GRID_BETAS = [0.5, 1.0, 1.5, 2.0]  # beta_min 0.5, beta_max 2, 4 points


@pytest.fixture(scope="module")
def table():
    return limit_law_plotted_table(BETAS, RATIOS, RATIO_BETA, 400, 0.5, 2.0, 4)


def densities(table):
    """(sweep, series, beta, c) -> (x, density) of every density curve."""
    rows = table[table["series"].str.endswith("_density")]
    return {
        key: (group["x"].to_numpy(), group["density"].to_numpy())
        for key, group in rows.groupby(["sweep", "series", "beta", "c"])
    }


def moments(x, p):
    """int x^k p dx for k = 0, 1, 2 from the tabulated points: on (0, x_1] the density is
    C x^{-1/2} (no atom, papers.md section 2), so int_0^{x_1} x^k p = x_1^{k+1} p(x_1) / (k + 1/2);
    the trapezoid rule beyond."""
    return [x[0] ** (k + 1) * p[0] / (k + 0.5) + np.trapezoid(x**k * p, x) for k in range(3)]


def test_every_density_integrates_to_one_with_the_moments_of_its_law(table):
    curves = densities(table)
    assert len(curves) == 2 * len(BETAS) + len(RATIOS)
    for (sweep, series, beta, c), (x, p) in curves.items():
        theta1 = np.expm1(beta**2)
        second = 2 * theta1**2 + (beta**4 * c if series == "nu_inf_density" else 0.0)
        mass, first, m2 = moments(x, p)
        # 400 points: the x^{-1/2} (and Fuss–Catalan x^{-2/3}) rise near 0 leaves at most
        # 1.6e-3 of the mass to the trapezoid rule; the moments, weighted away from 0, 2e-4
        assert mass == pytest.approx(1.0, abs=5e-3), (sweep, series, beta, c)
        assert first == pytest.approx(theta1, rel=1e-3), (sweep, series, beta, c)
        assert m2 == pytest.approx(second, rel=1e-3), (sweep, series, beta, c)


def test_the_surrogate_has_the_mean_of_nu_inf(table):
    curves = densities(table)
    for beta in BETAS:
        law = moments(*curves[("betas", "nu_inf_density", beta, 1.0)])[1]
        surrogate = moments(*curves[("betas", "mp_density", beta, 1.0)])[1]
        assert surrogate == pytest.approx(law, rel=2e-3)


def test_nu_inf_densities_agree_with_the_r_transform_route(table):
    for (_, series, beta, c), (x, p) in densities(table).items():
        if series == "nu_inf_density":
            every = slice(None, None, 25)
            route = SymmetrisedLinearModel(beta, c).density(x[every])
            np.testing.assert_allclose(route, p[every], rtol=1e-9, atol=1e-12 * p.max())


def test_edges_are_the_library_edge_solvers(table):
    edges = table[table["series"] == "nu_inf_edge"]
    assert len(edges) == len(BETAS) + len(RATIOS)
    for _, row in edges.iterrows():
        assert row["value"] == bulk_edge(row["beta"], row["c"])  # the table holds the solver's
        model = SymmetrisedLinearModel(row["beta"], row["c"])  # the R-transform route's K(G*)^2
        assert row["value"] == pytest.approx(model.edge, rel=1e-10)
        assert row["value_over_theta1"] == pytest.approx(row["value"] / np.expm1(row["beta"] ** 2))
    surrogate = table[table["series"] == "mp_edge"]
    np.testing.assert_allclose(surrogate["value"], 4 * np.expm1(surrogate["beta"] ** 2), rtol=1e-15)
    np.testing.assert_allclose(surrogate["value_over_theta1"], 4.0, rtol=1e-15)
    grid = table[table["sweep"] == "beta_grid"]
    curve = {name: rows["value"].to_numpy() for name, rows in grid.groupby("series")}
    np.testing.assert_array_equal(grid.loc[grid["series"] == "x_plus", "beta"], GRID_BETAS)
    np.testing.assert_array_equal(curve["x_plus"], [bulk_edge(b) for b in GRID_BETAS])
    np.testing.assert_array_equal(curve["small_beta"], edge_small_beta(np.array(GRID_BETAS)))
    np.testing.assert_array_equal(curve["large_beta"], edge_large_beta(np.array(GRID_BETAS)))
    assert (curve["x_plus"] > curve["mp_edge"]).all()  # claim A.4 in theory


def mp_cdf(x, theta1):
    """The surrogate's cdf (2 phi + sin 2 phi) / pi, sin^2 phi = x / (4 theta1), written out."""
    phi = np.arcsin(np.sqrt(np.clip(x / (4 * theta1), 0.0, 1.0)))
    return (2 * phi + np.sin(2 * phi)) / np.pi


def test_distances_from_the_surrogate_against_independent_evaluations(table):
    grid = table[table["sweep"] == "beta_grid"]
    curve = {name: rows["value"].to_numpy() for name, rows in grid.groupby("series")}
    betas = np.array(GRID_BETAS)
    theta1 = np.expm1(betas**2)
    # m2 / m1^2 - 2 = beta^4 / theta1^2 at c = 1 (papers.md section 2)
    np.testing.assert_allclose(curve["second_moment_excess"], betas**4 / theta1**2, rtol=1e-10)
    # the mass above 4 theta1 by quadrature of the R-transform route's density (beta = 1)
    model = SymmetrisedLinearModel(1.0)
    above, _ = quad(model.density, 4 * theta1[1], model.edge, epsabs=1e-13, epsrel=1e-10)
    assert curve["mass_above_mp_edge"][1] == pytest.approx(above, rel=1e-8)
    # the Kolmogorov distance is a supremum: at least |F - G| anywhere (here on 2000 points),
    # and at least the mass above 4 theta1, where the surrogate's cdf is 1
    for beta, t1, distance, mass in zip(
        betas, theta1, curve["kolmogorov_distance"], curve["mass_above_mp_edge"], strict=True
    ):
        law = NuInfinity(beta)
        x = np.linspace(0.0, law.edge, 2000)
        lower = np.max(np.abs(law.cdf(x) - mp_cdf(x, t1)))
        assert lower - 1e-12 <= distance <= lower + 1e-3 * distance, beta
        assert distance >= mass - 1e-12
    assert (np.diff(curve["kolmogorov_distance"]) < 0).all()  # nu_inf -> MP as beta grows


def test_the_caption_table_is_the_figure_s_edges_and_masses(table):
    rows = limit_law_table_rows(BETAS, RATIOS, RATIO_BETA)
    assert len(rows) == len(BETAS) + len(RATIOS) and all(len(r) == 8 for r in rows)
    assert LIMIT_LAW_TABLE_HEADER[3] == "x_plus"
    edges = table[table["series"] == "nu_inf_edge"]["value"].to_numpy()
    np.testing.assert_array_equal([row[3] for row in rows], edges)
    for beta, c, theta1, x_plus, over_theta1, over_mp, above, ratio in rows:
        assert over_theta1 == pytest.approx(x_plus / theta1) and over_mp > 1
        assert ratio == pytest.approx(2 + beta**4 * c / theta1**2)
        assert 0 < above < 1


def test_bad_arguments_raise_naming_them():
    with pytest.raises(ValueError, match="top"):
        scaled_grid(0.0, 10, [])
    with pytest.raises(ValueError, match="points"):
        scaled_grid(5.0, 1, [])
    with pytest.raises(ValueError, match="beta_min"):
        beta_grid_parts(2.0, 1.0, 5)
    with pytest.raises(ValueError, match="beta"):
        limit_law_plotted_table([0.0], RATIOS, RATIO_BETA, 50, 0.5, 2.0, 2)
    with pytest.raises(ValueError, match="ratio"):
        limit_law_plotted_table(BETAS, [0.0], RATIO_BETA, 50, 0.5, 2.0, 2)
    assert BETA_GRID_SERIES[0] == "x_plus"


def test_the_grid_holds_every_edge_and_its_neighbours():
    t = scaled_grid(8.0, 16, [4.0, 6.5, 9.0])
    assert t[0] == 0.5 and t[-1] == 8.0 and (np.diff(t) > 0).all()
    for edge in (4.0, 6.5):
        assert {edge, edge * (1 - 1e-9), edge * (1 + 1e-9)} <= set(t)
    assert 9.0 not in t
