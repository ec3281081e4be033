# Paper C, canonical score model S = diag(sigma) (papers.md section 5): figures C1 (spectra of S
# and A), C2 (bulk -> 0), C3 (stable rank), C4 (spike survival), table C-T1, and the evidence of
# claims C.1-C.4. Simulations write under {results} (one root per replicate) and pass the
# replicate to the library's random streams; each job computes every draw of one parameter point
# (draws seeded on their own). The figures and tables read the configured replicate RESULTS.

CANONICAL = config["paperC"]["canonical"]
CANONICAL_MODEL = {
    key: CANONICAL[key]
    for key in ("spikes", "kappa", "spike_placement", "bulk_scale", "gaussian_ratio")
}
CANONICAL_SPECTRA = "{results}/paperC/canonical/C1-spectra.npz"
CANONICAL_COUNTS = "{results}/paperC/canonical/C2-bulk-counts.npz"
CANONICAL_STABLE_RANKS = expand(
    "{{results}}/paperC/canonical/stable-rank/n{n_tokens}.npz",
    n_tokens=CANONICAL["stable_rank"]["n_tokens"],
)
CANONICAL_ISOTROPIC = expand(
    "{{results}}/paperC/canonical/isotropic/n{n_tokens}.npz",
    n_tokens=CANONICAL["isotropic"]["n_tokens"],
)
CANONICAL_GAUSSIAN = expand(
    "{{results}}/paperC/canonical/gaussian-model/ell{n_tokens}.npz",
    n_tokens=CANONICAL["gaussian_model"]["n_tokens"],
)
# Theory (deterministic, shared by every replicate): the Gaussian model's derived references.
CANONICAL_GAUSSIAN_REFERENCE = (
    f"{RESULTS_BASE}/paperC/canonical/gaussian-model-reference.npz"
)
CANONICAL_SURVIVAL = expand(
    "{{results}}/paperC/canonical/survival/n{n_tokens}.npz",
    n_tokens=CANONICAL["survival"]["n_tokens"],
)


declare_memory(
    "paperC.canonical.spectra.n_tokens",
    [CANONICAL["spectra"]["n_tokens"]],
    lambda n: dense_job_mem_mb(n, copies=8),
)
declare_memory(
    "paperC.canonical.isotropic.n_tokens",
    CANONICAL["isotropic"]["n_tokens"],
    lambda n: dense_job_mem_mb(n, copies=8),
)
for _section in ("stable_rank", "survival"):
    declare_memory(
        f"paperC.canonical.{_section}.n_tokens",
        CANONICAL[_section]["n_tokens"],
        lanczos_job_mem_mb,
    )


rule paperC_C1_spectra:
    """Every singular value of S = diag(sigma) and of A per bulk profile and mask (C1), with
    the isotropic softmax(U Sigma V^T)."""
    output:
        CANONICAL_SPECTRA,
    log:
        "logs/{results}/paperC/canonical/C1-spectra.log",
    benchmark:
        "benchmarks/{results}/paperC/canonical/C1-spectra.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(
            dense_job_mem_mb(CANONICAL["spectra"]["n_tokens"], copies=8)
        ),
    params:
        model=CANONICAL_MODEL,
        spectra=CANONICAL["spectra"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C1_spectra.py"


rule paperC_C1_figure:
    """Figure C1 from its tidy table: singular values of S and of A per profile, verdicts of
    C.1 and C.2."""
    input:
        spectra=CANONICAL_SPECTRA.format(results=RESULTS),
        claims=f"{RESULTS}/paperC/claims.csv",
        paper_scale=paper_scale_claims_of("C"),
        caption="workflow/report/paperC/C1-spectra.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperC/C1-spectra")),
    log:
        "logs/paperC/C1-figure.log",
    benchmark:
        "benchmarks/paperC/C1-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="C1-spectra",
        model=CANONICAL_MODEL,
        spectra=CANONICAL["spectra"],
    script:
        f"{SCRIPTS}/figure.py"


rule paperC_C2_counts:
    """Exact counts N(x) = #{k : n s_k(A) < x} on the grid for every n, profile, mask and draw
    (Sylvester inertia, O(n) per grid point, no SVD)."""
    output:
        CANONICAL_COUNTS,
    log:
        "logs/{results}/paperC/canonical/C2-bulk-counts.log",
    benchmark:
        "benchmarks/{results}/paperC/canonical/C2-bulk-counts.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(
            job_mem_mb(300 + 40 * max(CANONICAL["bulk"]["n_tokens"]) // 1000)
        ),
    params:
        model=CANONICAL_MODEL,
        bulk=CANONICAL["bulk"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C2_counts.py"


rule paperC_C2_evidence:
    """Evidence of C.2 (registry rows C.2/...): the median bulk singular value per (draw, n)."""
    input:
        counts=CANONICAL_COUNTS,
    output:
        "{results}/paperC/evidence/C2-bulk.npz",
    log:
        "logs/{results}/paperC/evidence/C2-bulk.log",
    benchmark:
        "benchmarks/{results}/paperC/evidence/C2-bulk.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(300)),
    params:
        output_name="C2-bulk",
        model=CANONICAL_MODEL,
        bulk=CANONICAL["bulk"],
    script:
        f"{SCRIPTS}/evidence.py"


rule paperC_C2_figure:
    """Figure C2 from its tidy table: bulk distribution of n s_k(A) and its quantiles against
    n, verdicts of C.2."""
    input:
        counts=CANONICAL_COUNTS.format(results=RESULTS),
        claims=f"{RESULTS}/paperC/claims.csv",
        paper_scale=paper_scale_claims_of("C"),
        caption="workflow/report/paperC/C2-bulk.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperC/C2-bulk")),
    log:
        "logs/paperC/C2-figure.log",
    benchmark:
        "benchmarks/paperC/C2-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="C2-bulk",
        model=CANONICAL_MODEL,
        bulk=CANONICAL["bulk"],
    script:
        f"{SCRIPTS}/figure.py"


rule paperC_C3_stable_rank:
    """Stable ranks and spike-tied singular values of the canonical model at one n, every
    profile, mask and draw, and the Cesaro matrix C_n."""
    output:
        "{results}/paperC/canonical/stable-rank/n{n_tokens}.npz",
    log:
        "logs/{results}/paperC/canonical/stable-rank/n{n_tokens}.log",
    benchmark:
        "benchmarks/{results}/paperC/canonical/stable-rank/n{n_tokens}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(lambda wildcards: lanczos_job_mem_mb(wildcards.n_tokens)),
    params:
        model=CANONICAL_MODEL,
        stable_rank=CANONICAL["stable_rank"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C3_stable_rank.py"


rule paperC_C3_gaussian:
    """Stable ranks of the Gaussian model softmax(beta Q K^T / sqrt(d)) at one n = ell = d,
    both masks, every draw."""
    output:
        "{results}/paperC/canonical/gaussian-model/ell{n_tokens}.npz",
    log:
        "logs/{results}/paperC/canonical/gaussian-model/ell{n_tokens}.log",
    benchmark:
        "benchmarks/{results}/paperC/canonical/gaussian-model/ell{n_tokens}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(
            lambda wildcards: dense_job_mem_mb(wildcards.n_tokens, copies=3)
        ),
    params:
        gaussian_model=CANONICAL["gaussian_model"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C3_gaussian.py"


rule paperC_C3_gaussian_reference:
    """Derived stable-rank references of the Gaussian model at the configured sizes (theory:
    no random stream, shared by every replicate)."""
    output:
        CANONICAL_GAUSSIAN_REFERENCE,
    log:
        "logs/paperC/canonical/gaussian-model-reference.log",
    benchmark:
        "benchmarks/paperC/canonical/gaussian-model-reference.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        # (rows x log t) powers in blocks of 512 rows, (log t x Z) quadrature: ~10 MB each
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        gaussian_model=CANONICAL["gaussian_model"],
    script:
        f"{SCRIPTS}/paperC_C3_gaussian_reference.py"


rule paperC_C3_isotropic:
    """Stable ranks and spike-tied values of the isotropic model softmax(U Sigma V^T), U, V
    Haar, at one n, every draw."""
    output:
        "{results}/paperC/canonical/isotropic/n{n_tokens}.npz",
    log:
        "logs/{results}/paperC/canonical/isotropic/n{n_tokens}.log",
    benchmark:
        "benchmarks/{results}/paperC/canonical/isotropic/n{n_tokens}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(
            lambda wildcards: dense_job_mem_mb(wildcards.n_tokens, copies=8)
        ),
    params:
        model=CANONICAL_MODEL,
        isotropic=CANONICAL["isotropic"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C3_isotropic.py"


rule paperC_CT1_evidence:
    """Evidence of C.1, C.3 and C.4 (registry rows C.1/..., C.3/..., C.4/...): spike-tied
    singular values and stable ranks of the canonical, isotropic and Gaussian models."""
    input:
        canonical=CANONICAL_STABLE_RANKS,
        isotropic=CANONICAL_ISOTROPIC,
        gaussian=CANONICAL_GAUSSIAN,
        reference=CANONICAL_GAUSSIAN_REFERENCE,
    output:
        "{results}/paperC/evidence/C-T1-stable-rank.npz",
    log:
        "logs/{results}/paperC/evidence/C-T1-stable-rank.log",
    benchmark:
        "benchmarks/{results}/paperC/evidence/C-T1-stable-rank.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(300)),
    params:
        output_name="C-T1-stable-rank",
        model=CANONICAL_MODEL,
        stable_rank=CANONICAL["stable_rank"],
        isotropic=CANONICAL["isotropic"],
        gaussian_model=CANONICAL["gaussian_model"],
    script:
        f"{SCRIPTS}/evidence.py"


rule paperC_C3_figure:
    """Figure C3 from its tidy table: stable rank against n (canonical, isotropic, Gaussian,
    Cesaro), verdicts of C.3 and C.4."""
    input:
        canonical=expand(CANONICAL_STABLE_RANKS, results=RESULTS),
        isotropic=expand(CANONICAL_ISOTROPIC, results=RESULTS),
        gaussian=expand(CANONICAL_GAUSSIAN, results=RESULTS),
        reference=CANONICAL_GAUSSIAN_REFERENCE,
        claims=f"{RESULTS}/paperC/claims.csv",
        paper_scale=paper_scale_claims_of("C"),
        caption="workflow/report/paperC/C3-stable-rank.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperC/C3-stable-rank")),
    log:
        "logs/paperC/C3-figure.log",
    benchmark:
        "benchmarks/paperC/C3-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="C3-stable-rank",
        model=CANONICAL_MODEL,
        stable_rank=CANONICAL["stable_rank"],
        isotropic=CANONICAL["isotropic"],
        gaussian_model=CANONICAL["gaussian_model"],
    script:
        f"{SCRIPTS}/figure.py"


rule paperC_C4_survival:
    """Spike-tied singular values and diagonal entries A_pp of the canonical model at one n
    for every kappa (spikes kappa log n)."""
    output:
        "{results}/paperC/canonical/survival/n{n_tokens}.npz",
    log:
        "logs/{results}/paperC/canonical/survival/n{n_tokens}.log",
    benchmark:
        "benchmarks/{results}/paperC/canonical/survival/n{n_tokens}.tsv"
    wildcard_constraints:
        n_tokens=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(lambda wildcards: lanczos_job_mem_mb(wildcards.n_tokens)),
    params:
        model=CANONICAL_MODEL,
        survival=CANONICAL["survival"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C4_survival.py"


rule paperC_C4_figure:
    """Figure C4 from its tidy table: spike survival against kappa per mask and n, verdicts
    of C.1."""
    input:
        survival=expand(CANONICAL_SURVIVAL, results=RESULTS),
        claims=f"{RESULTS}/paperC/claims.csv",
        paper_scale=paper_scale_claims_of("C"),
        caption="workflow/report/paperC/C4-spike-survival.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperC/C4-spike-survival")),
    log:
        "logs/paperC/C4-figure.log",
    benchmark:
        "benchmarks/paperC/C4-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="C4-spike-survival",
        model=CANONICAL_MODEL,
        survival=CANONICAL["survival"],
    script:
        f"{SCRIPTS}/figure.py"


rule paperC_CT1_table:
    """Table C-T1: stable-rank limits and slopes with their derived finite-n references, and
    the verdicts of C.1-C.4."""
    input:
        canonical=expand(CANONICAL_STABLE_RANKS, results=RESULTS),
        isotropic=expand(CANONICAL_ISOTROPIC, results=RESULTS),
        gaussian=expand(CANONICAL_GAUSSIAN, results=RESULTS),
        reference=CANONICAL_GAUSSIAN_REFERENCE,
        claims=f"{RESULTS}/paperC/claims.csv",
        paper_scale=paper_scale_claims_of("C"),
        caption="workflow/report/paperC/C-T1-stable-rank.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **table_files(in_figures("paperC/C-T1-stable-rank")),
    log:
        "logs/paperC/C-T1-table.log",
    benchmark:
        "benchmarks/paperC/C-T1-table.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="C-T1-stable-rank",
        model=CANONICAL_MODEL,
        stable_rank=CANONICAL["stable_rank"],
        isotropic=CANONICAL["isotropic"],
        gaussian_model=CANONICAL["gaussian_model"],
    script:
        f"{SCRIPTS}/table.py"
