# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Paper D: Gaussian equivalence for multi-head self-attention
#
# Hayase, Karakida, *Gaussian Equivalence for Multi-Head Self-Attention* (arXiv 2610.10033).
#
# This companion shows the figures and tables that the workflow made for paper D, with a short
# account of the mathematics behind each and of the claim it supports, and ends with the verdicts.
# It computes nothing: every number and image is read from `figures/paperD/`, so it shows whichever
# preset produced those files (`snakemake figures/paperD.ipynb` executes it). The full text of
# paper D is public; `docs/papers.md` (section 8) records what is confirmed from it, what attnspec
# derived and what is reconstructed, and every caption states the status of its figure.
#
# **The model** (paper D, sections 2-3). $h$ heads; $Q_r, K_r, V_r$ with iid $N(0, 1)$ entries
# (orthonormal-row input $XX^\top/d = I_n$, fan-in weights), $W^O$ of variance $1/(h d_V)$;
# $A_r = \mathrm{softmax}(\beta Q_r K_r^\top/\sqrt{d_K})$ and the centred output
# $\mathrm{MHA}^\perp = [A_1^\perp V_1, \dots, A_h^\perp V_h] W^O$ with
# $A_r^\perp = A_r - \mathbf{1}\mathbf{1}^\top/n$. Its Gaussian equivalent replaces each $A_r^\perp$
# by $Y_r^G = (\beta S_r + \sqrt{e^{\beta^2} - 1 - \beta^2}\, W_r)/\sqrt n$ with the **same**
# weights. In the proportional regime ($h d_K/n \to \gamma_K$, $h d_V/n \to \gamma_V$,
# $d_O/n \to \gamma_O$, $h$ and $\beta$ fixed) both squared-singular-value laws converge to a
# compound free Poisson law (Theorem 3.1); sharing keys and values across heads keeps it, tying
# $V_r = K_r$ within heads changes it (corollary C.7).

# %%
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from attnspec.workflow.companion import PaperOutputs

paper = PaperOutputs("D")
# Contents: the title line of every caption (a missing caption stops the notebook here).
paper.contents()

# %% [markdown]
# ## D1: the finite-size equivalence at the dimensions of public models (claim D.1)
#
# The configurations of paper D's table D.2 (*confirmed*): all $n$ eigenvalues of
# $\mathrm{MHA}^\perp \mathrm{MHA}^{\perp\top}$ against those of $n^{-1} \mathrm{MHA}^G
# \mathrm{MHA}^{G\top}$, by the relative Wasserstein-1 distance (over the common limiting mean) and
# KS, with Student-t 95 % intervals over draws beside the published ones, and the floor: the same
# distances between two Gaussian equivalents of the same weights with independent noise. Rows
# D.1/<model>/published-w1 and published-ks judge paper D's claim, the finite-size distance it
# reports: our mean raw distance's interval must lie within twice the published half-width of the
# published mean, and every wrong Gaussian equivalent (1 % off in beta, half the score term, no
# score term) be ruled out against the same mean. Rows D.1/<model>/w1 and ks, beyond the paper,
# ask more than it states: the distance minus the floor within 0.5 % (relative W1) or 0.01 (KS)
# of 0, softmax as close to its Gaussian equivalent as two Gaussian equivalents are.

# %%
paper.figure("D1-public-models")

# %% [markdown]
# ## D2: the limit law for several head counts
#
# *Reconstructed* from the description of paper D's figure D.1. The attention law
# $\nu_{\infty,h} = \rho_{\gamma_K} \boxtimes \mathrm{MP}_{1/h}$ (C.10) and the layer's law
# $\nu_{\infty,h} \boxtimes \mathrm{MP}_{1/\gamma_V} \boxtimes \pi_{\gamma_O}$ (C.15) against the
# softmax and Gaussian-equivalent spectra; at $h = 1$ without projections the attention law is
# paper A's $\nu_\infty$.

# %%
paper.figure("D2-heads")

# %% [markdown]
# ## D3: sharing keeps the law, tying changes it (claims D.2, D.3)
#
# *Reconstructed*. Multi-query and grouped-query sharing against independent heads: their softmax
# spectra's KS to the independent-head law, in excess of independent heads' own, must lie within a
# quarter of the KS distance between the independent-head and tied laws (D.2); the $K = V$ spectrum
# must be closer to its own law than to the independent-head law by at least half that distance
# (D.3).

# %%
paper.figure("D3-sharing")

# %% [markdown]
# ## D4: paper D's own figure D.1
#
# The setting of paper D's figure D.1 (appendix D.7, *confirmed*; the layout is *reconstructed*):
# $n = 256$, $\beta = 1$, ten draws, 64 bins. (a) The attention law
# $\nu_{\infty,h} = \rho_{\gamma_K} \boxtimes \mathrm{MP}_{1/h}$ at a fixed total width
# $h d_K$: more heads concentrate the bulk. (b) The layer's law (C.15) at two output widths. (c)
# Independent heads, one K/V pair for all heads and $V_r = K_r$ within heads: the first two share
# the independent-head law, the third follows the tied law (C.21); the independent and tied
# conditions are one draw (the same queries, keys, $W^O$ and noise).

# %%
paper.figure("D4-figure-d1")

# %% [markdown]
# ## Table D-T1: the table D.2 comparison, ours beside the published numbers (claim D.1)

# %%
paper.table("D-T1-public-models")

# %% [markdown]
# ## Table D-T2: moments of the limit laws, theory against simulation
#
# Paper D's closed forms ($m_2/m_1^2 = 1 + 1/h + c_\beta^2/\gamma_K$ for attention, with
# $1/\gamma_V + 1/\gamma_O$ added for the layer, (C.16)) against the S-transform series and the
# simulated spectra.

# %%
paper.table("D-T2-moments")

# %% [markdown]
# ## Verdicts
#
# One row per registry test, read from `figures/paperD/claims.md`: each declared apart from the data
# (statistic, points, target, margin with its reason, interval, the wrong theories it must rule
# out), *holds* only when the 95 % interval lies inside the margin and every declared alternative
# reads *does not reproduce* on the same data, *inconclusive at these sizes* when the interval is
# too wide or an alternative is left standing.

# %%
paper.verdicts()

# %% [markdown]
# ## Redraw a figure from its CSV
#
# Every figure's CSV is the tidy table it was drawn from (one row per observation; the `kind`
# column tells the simulated data from theory and statistics, `series` names each row within its
# kind). A few lines of seaborn redraw the D1 comparison from `figures/paperD/D1-public-models.csv`
# alone: its data rows, softmax against its Gaussian equivalent and the floor (means over draws
# with two standard errors, close to the Student-t 95 % interval of ten draws).

# %%
table = pd.read_csv(paper.folder / "D1-public-models.csv")
grid = sns.catplot(
    data=table[table["kind"] == "data"], x="name", y="value", hue="series", col="metric",
    kind="point", errorbar=("se", 2), linestyle="none", dodge=0.3, sharey=False, height=2.6,
    aspect=1.4,
)  # fmt: skip
grid.set(yscale="log")
grid.set_xticklabels(rotation=35, ha="right")
grid.set_titles("{col_name}")
grid.figure.subplots_adjust(top=0.9)
plt.show()
