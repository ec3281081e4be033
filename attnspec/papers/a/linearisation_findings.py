"""Figure A5's caption sentence on the collapse in x = beta / sqrt(log ell), in words chosen by
the numbers of :func:`attnspec.papers.a.linearisation_summary.collapse_analysis`."""

from collections.abc import Mapping

import numpy as np


def collapse_statement(collapse: Mapping) -> str:
    """What the collapse analysis shows, in words chosen by its numbers (descriptive)."""
    text = (
        f"Across ell, log10 D spreads by {collapse['x_spread_mean']:.2f} decades on average at "
        f"fixed x against {collapse['beta_spread_mean']:.2f} at fixed beta. At fixed beta, D "
        f"goes like ell^s with s from {collapse['beta_exponent'].min():+.2f} to "
        f"{collapse['beta_exponent'].max():+.2f}; at fixed x, s rises from "
        f"{collapse['x_exponent'][0]:+.2f} (Y_lin floor: {collapse['x_floor_exponent'][0]:+.2f})"
    )
    if np.isnan(collapse["crossover"]):
        return text + (
            f" to {collapse['x_exponent'][-1]:+.2f} and its 95 % interval stays below 0 up to "
            f"x = {collapse['x'][-1]:.2f}: no collapse in the simulated range"
        )
    text += (
        f"; from x = {collapse['crossover']:.2f} on its 95 % interval reaches 0: there the "
        f"distance no longer decreases with ell and the curves spread by "
        f"{collapse['x_spread_beyond']:.3f} decades at fixed x against "
        f"{collapse['beta_spread_beyond']:.3f} at fixed beta (same region)"
    )
    if collapse["x_spread_beyond"] < collapse["beta_spread_beyond"]:
        return text + ": the curves collapse better in x than in beta"
    return text + ": the curves do not collapse better in x than in beta"
