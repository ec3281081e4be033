"""Table A-T1 (paper A): the bulk edge x_+ against the MP surrogate edge 4 theta1 over (beta, c).

x_+ = right edge of nu_inf = rho ⊠ MP_1 (paper B's scalar formula, physical root of the
stationary cubic); 4 theta1 = 4(e^{beta^2} - 1) is the edge of the iid-scores surrogate.
Paper A: x_+ > 4 theta1 for every beta > 0.
"""

from collections.abc import Sequence

from attnspec.theory import bulk_edge, mp_edge

EDGE_TABLE_HEADER = ("beta", "c", "x_plus", "mp_edge_4theta1", "ratio_x_plus_to_mp_edge")


def edge_table_rows(betas: Sequence[float], ratios: Sequence[float]) -> list[tuple]:
    """Rows (beta, c, x_+, 4 theta1, x_+/(4 theta1)) for every beta and c, beta-major."""
    rows = []
    for beta in betas:
        surrogate = mp_edge(beta)
        for ratio in ratios:
            x_plus = bulk_edge(beta, ratio)
            rows.append((float(beta), float(ratio), x_plus, surrogate, x_plus / surrogate))
    return rows
