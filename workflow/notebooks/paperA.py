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
# # Paper A: Gaussian equivalence for self-attention
#
# Hayase, Collins, Karakida, *Gaussian Equivalence for Self-Attention: Asymptotic Spectral Analysis
# of Attention Matrix* (AISTATS 2026, PMLR 300:2512–2520; arXiv 2510.06685).
#
# This companion shows the figures and tables that the workflow made for paper A, with a short
# account of the mathematics behind each and of the claim it supports, and ends with the verdicts.
# It computes nothing: every number and image is read from `figures/paperA/`, so it shows whichever
# preset produced those files (`snakemake figures/paperA.ipynb` executes it). Full texts were not
# available; `docs/papers.md` records what is confirmed, derived or reconstructed, and every caption
# states the status of its figure.
#
# **The model** (papers.md, section 1). $Q, K \in \mathbb{R}^{\ell \times d_{qk}}$ with iid
# $N(0, 1)$ entries, scores $S = Q K^\top / \sqrt{d_{qk}}$ and $A = \mathrm{softmax}(\beta S)$ row
# by row, in the proportional regime $c = \ell / d_{qk}$ fixed. $A$ is row-stochastic, so
# $A \mathbf{1} = \mathbf{1}$ and $s_1(A) \to 1$ (the Perron mode); with $u = \mathbf{1}/\sqrt\ell$
# the bulk is the law of the squared singular values of $\sqrt\ell\, A^\perp$,
# $A^\perp = A - u u^\top$. Paper A: the bulk converges to the law $\nu_\infty$ of the linear
# Gaussian model $Y_{\mathrm{lin}} = (\beta S + \sqrt{a}\, W)/\sqrt\ell$, $W$ iid $N(0, 1)$, with
# $a = e^{\beta^2} - 1 - \beta^2$ (the non-linear part of $f(x) = e^{\beta x - \beta^2/2} - 1$) and
# $b = \beta^2$ (its linear part); $\nu_\infty = \rho \boxtimes \mathrm{MP}_1$ with $\rho$ the law
# of $a + b x$, $x \sim \mathrm{MP}_c$, and right edge $x_+$.

# %%
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from attnspec.workflow.companion import PaperOutputs

paper = PaperOutputs("A")
# Contents: the title line of every caption (a missing caption stops the notebook here).
paper.contents()

# %% [markdown]
# ## A1: stepwise Gaussian approximation (claim A.3)
#
# Six $\ell \times \ell$ matrices replace softmax attention one step at a time:
# $\sqrt\ell\, A^\perp$; $Y$ (the row normaliser replaced by its mean $\ell e^{\beta^2/2}$);
# $Y_f = f(S)/\sqrt\ell$; $Y_Q$ (rows Gaussian with the exact conditional covariance $\Sigma_f$
# given $K$); $Y_Q^{\mathrm{lin}}$ (rows Gaussian with its linearisation
# $\Sigma_G = \beta^2 K K^\top / d_{qk} + a I$); $Y_f^{\mathrm{lin}} = Y_{\mathrm{lin}}$. If no step
# moves the bulk, the bulk of attention is $\nu_\infty$, the law of the linear model: Gaussian
# equivalence. The chain is *confirmed* from paper A's caption; the intermediate models $Y$, $Y_Q$,
# $Y_Q^{\mathrm{lin}}$ are *reconstructed*.

# %%
paper.figure("A1-stepwise")

# %% [markdown]
# ## A2: the full sorted spectrum of $\sqrt\ell\, A$
#
# *Reconstructed* (paper A's "Figure 2" is known only from reviews). One Perron value near $\ell$
# ($\ell s_1(A)^2 \approx \ell + \theta_1 + \ell \beta^4 / (2 d_{qk})$,
# $\theta_1 = e^{\beta^2} - 1$), a bulk that follows $\nu_\infty$ up to $x_+$, which lies above the
# Marchenko–Pastur edge $4\theta_1$, and a few values above $x_+$. Those are finite-size effects:
# the entries of $\sqrt\ell\, A^\perp$ have log-normal tails, and the largest, $\theta$, acts as a
# rank-one spike with an outlier at $K(1/\theta)^2$ (papers.md, section 3); their singular vectors
# are localised. They are not a second Perron mode.

# %%
paper.figure("A2-spectrum")

# %% [markdown]
# ## A3: the bulk against $\nu_\infty$ and against Marchenko–Pastur (claim A.4)
#
# *Reconstructed* layout of the claim "$\nu_\infty$ is not Marchenko–Pastur". The "iid scores"
# surrogate $\theta_1 \mathrm{MP}_1$ has the same mean $\theta_1$ and the edge $4\theta_1$; paper A
# shows $x_+ > 4\theta_1$ for every $\beta > 0$, so $\nu_\infty$ has mass above $4\theta_1$ where
# the surrogate has none. The verdict (row A.4) measures, draw by draw, the share of the bulk above
# $4\theta_1$ (bottom panels) against $\nu_\infty$'s mass there, $1 - F_{\nu_\infty}(4\theta_1)$,
# within 0.005; the same data must rule out the surrogate (mass 0) and $\nu_\infty$ at
# $\beta(1 \pm 3\,\%)$ (the share above $4\theta_1(\beta')$ against that law's mass).

# %%
paper.figure("A3-bulk-laws")

# %% [markdown]
# ## A4: the right edge $x_+(\beta)$ against $4\theta_1$
#
# *Reconstructed* layout; the curves are theory. For $c = 1$, $x_+ = (a + b/(g(1 - g)))^2 g / b$
# with $g$ the physical root in $(0, 1/3)$ of $a g (1 - g)^2 + b (3g - 1) = 0$. Small $\beta$:
# $x_+ = \tfrac{27}{4}\beta^2 + \tfrac32\beta^4 + \tfrac59\beta^6 + O(\beta^8)$ ($27/4$ is the
# Fuss–Catalan edge of a product of two Ginibre matrices); large $\beta$:
# $x_+ - 4\theta_1 \approx 4\beta^4/a \to 0$. So $x_+/4\theta_1$ falls from $27/16$ towards 1 and
# stays above it, within 1 % from $\beta = 2$ on. The points are the top values of
# $Y_{\mathrm{lin}}$, whose Tracy–Widom shift below $x_+$ is visible at these sizes.

# %%
paper.figure("A4-edge")

# %% [markdown]
# ## A5: the linearisation threshold (claims A.1 and A.5)
#
# *Reconstructed* (paper A, section 6.1, known from a follow-up). The Kolmogorov and Wasserstein-1
# distances of the bulk to $\nu_\infty$, against $x = \beta/\sqrt{\log \ell}$. The softmax row
# normaliser $\sum_j e^{\beta S_{ij}}$ has relative variance $(e^{\beta^2} - 1)/\ell$, of order one
# when $\beta^2 \sim \log\ell$: there linearisation breaks down (A.5). At $\beta = O(1)$ the
# distance should fall to the noise floor given by $Y_{\mathrm{lin}}$, whose limit is exactly
# $\nu_\infty$ (A.1); the log-normal tails of the softmax weights slow this down already at
# $\beta = 1$. Row A.1 compares each attention draw with the $Y_{\mathrm{lin}}$ draw of the same
# $Q, K$ and must rule out the Marchenko–Pastur surrogate and $\nu_\infty$ at $\beta(1 \pm 3\,\%)$
# on the same draws; row A.5/location fits $\log\beta^*$ on $\log\log\ell$ (target $1/2$, against
# a fixed threshold, $0$, and $\beta^* \propto \log\ell$, $1$).

# %%
paper.figure("A5-linearisation")

# %% [markdown]
# ## A6: the Perron mode, $s_1(A) \to 1$ (claim A.2)
#
# *Reconstructed*; the finite-$\ell$ prediction is *derived*:
# $s_1(A)^2 \approx 1 + \theta_1/\ell + \beta^4/(2 d_{qk})$ for $\beta \le 1$, so $|s_1(A) - 1|$
# decays like $\ell^{-1}$ at $c = 1$. The verdict fits the slope of $\log|s_1 - 1|$ against
# $\log \ell$ (target $-1$). The stable rank $\lVert A \rVert_F^2 / \lVert A \rVert^2$ tends to
# $e^{\beta^2}$.

# %%
paper.figure("A6-perron")

# %% [markdown]
# ## A7: $\nu_\infty$ across the proportional regime
#
# *Reconstructed*. Only $c = \ell/d_{qk}$ and $\beta$ enter $\nu_\infty$; the panels vary $c$ and
# draw the law at the swapped ratio $d_{qk}/\ell$ as well, a common mistake the data rule out (at
# $\beta = 1$, $c = 1/2$ it moves the edge from 7.98 to 10.90). The last panel is the literal
# construction $S = X W^Q (W^K)^\top X^\top/\sqrt{d_{qk}}$ with orthonormal rows of $X$: $X$ drops
# out in law. For $c > 1$ and small $\beta$ the support of $\nu_\infty$ can have an internal gap.

# %%
paper.figure("A7-ratios")

# %% [markdown]
# ## A8: the limit law $\nu_\infty$ against its Marchenko–Pastur surrogate
#
# Theory only, *derived* from the confirmed form of $\nu_\infty$: no simulation is drawn (A3, A4
# and A7 compare with data). In units of $\theta_1$ the surrogate is $\mathrm{MP}_1$ at every
# $\beta$, while $\nu_\infty$ moves from the Fuss–Catalan law (edge 27/4) at small $\beta$ to
# $\mathrm{MP}_1$ at large $\beta$; its tail beyond $4\theta_1$ is what claim A.4 is about.

# %%
paper.figure("A8-limit-law")

# %% [markdown]
# ## Table A-T1: the edge $x_+$ against $4\theta_1$
#
# Theory only. The edge formula is *confirmed* in form; the layout is *reconstructed*. The ratio
# $x_+/4\theta_1$ exceeds 1 at every $(\beta, c)$ and tends to 1 as $\beta$ grows (claim A.4).

# %%
paper.table("A-T1-edges")

# %% [markdown]
# ## Table A-T2: the stepwise models (claim A.3)
#
# *Reconstructed*. Moments and distances of each model of figure A1; the second table is the
# evidence for A.3: the two-sample Kolmogorov distance between draws of $\sqrt\ell\, A^\perp$ and of
# $Y_{\mathrm{lin}}$ against that between two draws of $Y_{\mathrm{lin}}$ (the noise floor), by
# $\ell$.

# %%
paper.table("A-T2-stepwise")

# %% [markdown]
# ## Verdicts
#
# One row per claim of the abstract, read from `figures/paperA/claims.md`. Each row's test is
# declared in `attnspec/papers/a/declared_tests.py` (later changes listed by commit): a statistic, a
# target from theory and a margin fixed in the claim's own units. *Holds*: the 95 % interval lies
# inside the pass region and every wrong theory the row declares (Marchenko–Pastur with the same
# mean, $\beta$ off by 1 %, a wrong exponent) reads *does not reproduce* on the same data; *does not
# reproduce*: the interval lies outside; otherwise *inconclusive at these sizes*. The rows A.1 and
# A.3 declare a finite-size model over every $\ell$ of figure A5, like paper B's: their limit
# decides, and a judged size off the region with the limit inside holds with a finite-size caveat.
# Each row whose wrong theories move $\beta$ is judged at $\pm 3$ % too, and a verdict that differs
# is shown.

# %%
paper.verdicts()

# %% [markdown]
# ## Redraw a figure from its CSV
#
# Every figure's CSV is the tidy table it was drawn from (one row per observation; its `kind` column
# tells the data from the theory curves and the statistics). A few lines of seaborn redraw the
# three panels of A6 from the data rows of `figures/paperA/A6-perron.csv` alone: the median over
# draws at each $\ell$ with the 10–90 % band of the draws.

# %%
table = pd.read_csv(paper.folder / "A6-perron.csv")
grid = sns.relplot(
    data=table[table["kind"] == "data"], x="n_tokens", y="value", hue="beta", col="panel",
    kind="line", estimator="median", errorbar=("pi", 80), marker="o", palette="deep",
    facet_kws={"sharey": False}, height=2.6, aspect=1.1,
)  # fmt: skip
for ax in grid.axes.flat:
    ax.set_xscale("log", base=2)
grid.axes.flat[0].set_yscale("log")
grid.set_titles("{col_name}")
plt.show()
