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
# # Paper C: spectral degeneration of self-attention
#
# *Spectral Degeneration of Self-Attention under Isotropic Score Geometry* (arXiv 2611.02778).
#
# This companion shows the figures and tables that the workflow made for paper C, with a short
# account of the mathematics behind each and of the claim it supports, and ends with the verdicts.
# It computes nothing: every number and image is read from `figures/paperC/`, so it shows whichever
# preset produced those files (`snakemake figures/paperC.ipynb` executes it). Paper C is known from
# its abstract only: everything here is *reconstructed* from it (`docs/papers.md`, sections 5 and
# 6), as every caption states.
#
# **The canonical model.** Under isotropic score geometry $S = U \Sigma V^\top$ is represented by
# $\Sigma = \mathrm{diag}(\sigma)$: $r$ spikes $\sigma_p = \kappa \log n$ and a bulk of $O(1)$
# values. The row softmax of a diagonal matrix is explicit: bidirectional,
# $A_{ii} = e^{\sigma_i}/(e^{\sigma_i} + n - 1)$ and $A_{ij} = 1/(e^{\sigma_i} + n - 1)$; causal
# ($j \le i$), $n - 1$ becomes $i - 1$. A spike with $\kappa > 1$ keeps $A_{pp} \to 1$ (the mode
# survives), while the bulk singular values go to 0 apart from the Perron mode. The stable rank
# $\lVert A \rVert_F^2 / \lVert A \rVert^2$ is then bounded for bidirectional attention (at most
# $r + 1 + o(1)$, since $\lVert A \rVert \ge 1$), while the causal bulk is close to the Cesàro
# averaging matrix, with $\lVert \cdot \rVert_F^2 = H_n \approx \log n$ and operator norm tending to
# 2 (Hardy), so its stable rank grows like $(\log n)/4$, reached only slowly.

# %%
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from attnspec.workflow.companion import PaperOutputs

paper = PaperOutputs("C")
# Contents: the title line of every caption (a missing caption stops the notebook here).
paper.contents()

# %% [markdown]
# ## C1: singular values of $S$ and of its row softmax (claims C.1, C.2)
#
# *Reconstructed*: the canonical model, its bulk profiles (zeros, iid, the singular values of a
# Gaussian score matrix) and the spike positions are our reading. Every singular value of $S$
# against those of $A$, bidirectional and causal: the $r$ spikes survive near 1, the bulk collapses.
# The isotropic model $\mathrm{softmax}(U \Sigma V^\top)$ with Haar $U, V$, which the canonical
# model stands for, is shown dashed in its own (last) panel.

# %%
paper.figure("C1-spectra")

# %% [markdown]
# ## C2: the bulk concentrates at zero (claim C.2)
#
# *Reconstructed*. The distribution of $n\, s_k(A)$ over the bulk at the largest $n$, and its
# difference for every smaller $n$: small and shrinking, so the bulk singular values themselves are
# $O(1/n)$. The counts are exact (Sylvester's
# law of inertia on $A A^\top$, $O(n)$ per point), with no dense SVD.

# %%
paper.figure("C2-bulk")

# %% [markdown]
# ## C3: stable rank, bounded (bidirectional) and $\sim \log n$ (causal) (claims C.3, C.4)
#
# *Reconstructed*; the asymptotic slope $1/4$ is *derived* (Cesàro matrix, Hardy's inequality).
# Bidirectional: below the bound $r + 1$. Causal: linear in $\log n$ with a fitted slope; since
# $\lVert C_n \rVert$ approaches 2 only like $2 - O(1/\log^2 n)$, slopes at moderate $n$ stay below
# $1/4$. The middle panel is the Gaussian model of papers A and B, bidirectional limit
# $e^{\beta^2}$.

# %%
paper.figure("C3-stable-rank")

# %% [markdown]
# ## C4: spike survival against the spike strength $\kappa$ (claim C.1)
#
# *Reconstructed*. With $\sigma_p = \kappa \log n$ the diagonal entry is
# $A_{pp} = n^\kappa/(n^\kappa + n - 1)$ (bidirectional): it switches from 0 to 1 at $\kappa = 1$,
# more sharply as $n$ grows. The markers are the singular values of $A$ tied to the spikes.

# %%
paper.figure("C4-spike-survival")

# %% [markdown]
# ## C5: eigen-angles of a pretrained transformer's scores (claim C.5)
#
# *Reconstructed*; the paper's own model and figure may differ. all-MiniLM-L6-v2 (6 layers x 12
# heads, head width 32) on public-domain text. C.5: the eigen-angles of the token-space singular
# matrices $U, V \in O(n)$ of each head's scores are close to uniform, as for Haar matrices, judged
# at $n \le$ the head width (beyond it the null space must be completed, and the angles test that
# convention more than the model). Scope of C.5: the diagnostic does not see locality
# (local-attention score heads give Haar-like eigen-angles), so it says nothing about local
# attention.

# %%
paper.figure("C5-eigen-angles")

# %% [markdown]
# ## C6: score spectra of a pretrained transformer (claim C.6)
#
# *Reconstructed*. C.6: the energy fraction $E_k = \sum_{i \le k} \sigma_i^2 / \sum_i \sigma_i^2$
# of the top $k$ directions of each head's scores, against an isotropic Gaussian reference of the
# same shape; with the normalised score spectra per layer and the attention's stable rank.

# %%
paper.figure("C6-score-spectra")

# %% [markdown]
# ## C7: stable rank of a pretrained transformer's attention against $n$ (claims C.3, C.4 looked at)
#
# *Beyond the paper*: our construction. The stable rank $\|A\|_F^2 / \|A\|_2^2$ of every head of
# all-MiniLM-L6-v2 against the passage length $n$, under its own (bidirectional) mask and a causal
# mask on the same scores, with the slope of the heads' median on $\log n$ (descriptive: no claims
# row judges it), beside the constant-score control (Cesàro $C_n$) and isotropic scores.

# %%
paper.figure("C7-pretrained-stable-rank")

# %% [markdown]
# ## Table C-T1: stable-rank limits and slopes (claims C.1–C.4)
#
# *Reconstructed*; the reference slope $1/4$ is *derived*. Per model and mask: the bidirectional
# stable rank at the largest $n$ against $r + 1$ (Gaussian model: $e^{\beta^2}$), and the causal
# slope against $\log n$ against $1/4$.

# %%
paper.table("C-T1-stable-rank")

# %% [markdown]
# ## Table C-T2: per-layer and per-head diagnostics of all-MiniLM-L6-v2 (claims C.5, C.6)
#
# *Reconstructed*. Medians over passages of the diagnostics of figures C5 and C6 for every layer
# and head, then the isotropic reference.

# %%
paper.table("C-T2-pretrained")

# %% [markdown]
# ## Verdicts
#
# One row per claim of the abstract, read from `figures/paperC/claims.md`; each row's test is
# declared in `attnspec/papers/c/declared_tests.py` (later changes listed by commit). C.1 is judged
# by how far the spike-tied singular values lie from 1 at the largest $n$, C.2 by the slope of the
# bulk median against $\log n$, C.3 by the bidirectional stable rank against $r + 1$ (and
# $e^{\beta^2}$ for the Gaussian model), C.4 by the causal slope against $\log n$, C.5 and C.6
# against an isotropic Gaussian reference of the same shape run through the same pipeline. Only
# *empirical* rows are evidence: the *model* rows evaluate the closed-form canonical model
# (C.1/canonical, C.2/zeros, C.3/canonical-...), and C.3/bound is a theorem. An empirical row
# *holds* only if its 95 % interval lies in the pass region **and** every wrong theory it declares,
# judged on the same data, reads *does not reproduce* (e.g. C.2 against the non-degenerate slope
# $-1/2$, C.5 against 5 % of structured distances); otherwise it is *inconclusive at these sizes*.
# No row of paper C declares a finite-size model, so none can hold with a finite-size caveat. *Does
# not reproduce*: the interval lies outside the pass region.

# %%
paper.verdicts()

# %% [markdown]
# ## Redraw a figure from its CSV
#
# Every figure's CSV is the tidy table it was drawn from (one row per observation). A few lines of
# seaborn redraw C3's stable ranks from `figures/paperC/C3-stable-rank.csv` alone: the median over
# draws with the 10-90 % band, per model, mask and bulk profile. Its `kind` column tells the
# simulated data from the theory curves and limits; among the data, the Cesàro control is one
# deterministic matrix per n (no draw).

# %%
table = pd.read_csv(paper.folder / "C3-stable-rank.csv")
data = table[table["kind"] == "data"]
draws = data[data["draw"].notna()]
grid = sns.relplot(
    data=draws, kind="line", x="n", y="value", col="model", hue="mask", style="profile",
    estimator="median", errorbar=("pi", 80), markers=True, height=2.6,
    facet_kws={"sharey": False},
)  # fmt: skip
grid.set(xscale="log")
grid.set_titles("{col_name}")
plt.show()
