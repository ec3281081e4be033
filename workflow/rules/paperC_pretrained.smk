# Paper C, figures C5 (eigen-angles), C6 (score spectra), C7 (stable rank against n) and table
# C-T2: diagnostics of the pretrained all-MiniLM-L6-v2 (claims C.5, C.6; C7 judges no row).
# Model -> per-passage Q, K (its own env; deterministic, shared by every replicate) -> per-head
# diagnostics; the Haar reference (Gaussian Q, K of the same shape) and the controls of the
# eigen-angle diagnostic -> the same diagnostics; all -> two-sample tests, evidence, figures and
# table. Random jobs write under {results} and pass the replicate to their streams.

from attnspec.pretrained.loader import HEAD_WIDTH

PRETRAINED = config["paperC"]["pretrained"]
PRETRAINED_QUERIES_KEYS = (
    "results/paperC/pretrained/queries-keys-n{tokens}-p{passages}.npz"
)
PRETRAINED_MODEL = "{results}/paperC/pretrained/minilm-n{tokens}-p{passages}.npz"
PRETRAINED_ISOTROPIC = (
    "{results}/paperC/pretrained/isotropic-n{tokens}-d{width}-r{draws}.npz"
)
PRETRAINED_CONTROL = (
    "{results}/paperC/pretrained/control-{control}-n{tokens}-d{width}-r{draws}.npz"
)
PRETRAINED_TESTS = "{results}/paperC/pretrained/eigen-angle-tests.npz"
FULL_RANK = PRETRAINED["full_rank_passages"]
LONG = PRETRAINED["long_passages"]
STABLE_RANK_LENGTHS = PRETRAINED["stable_rank_lengths"]
PRETRAINED_STABLE_RANKS = (
    "results/paperC/pretrained/stable-ranks-n{tokens}-max{passages}.npz"
)


# The diagnostics files of C5, C6, C-T2 and the C.5/C.6 evidence, by source and passage length.
PRETRAINED_DIAGNOSTICS = {
    "model_full_rank": expand(
        PRETRAINED_MODEL,
        allow_missing=True,
        tokens=FULL_RANK["tokens"],
        passages=FULL_RANK["count"],
    )[0],
    "model_long": expand(
        PRETRAINED_MODEL,
        allow_missing=True,
        tokens=LONG["tokens"],
        passages=LONG["count"],
    )[0],
    "isotropic_full_rank": expand(
        PRETRAINED_ISOTROPIC,
        allow_missing=True,
        tokens=FULL_RANK["tokens"],
        width=HEAD_WIDTH,
        draws=PRETRAINED["haar_reference_draws"],
    )[0],
    "isotropic_long": expand(
        PRETRAINED_ISOTROPIC,
        allow_missing=True,
        tokens=LONG["tokens"],
        width=HEAD_WIDTH,
        draws=PRETRAINED["reference_draws"],
    )[0],
    **{
        f"control_{control}": expand(
            PRETRAINED_CONTROL,
            allow_missing=True,
            control=control,
            tokens=FULL_RANK["tokens"],
            width=HEAD_WIDTH,
            draws=PRETRAINED["control_draws"],
        )[0]
        for control in ("aligned", "local")
    },
}


rule paperC_pretrained_queries_keys:
    """Per-passage queries and keys of every head of all-MiniLM-L6-v2 on the corpus
    (deterministic, shared by every replicate)."""
    input:
        corpus=PRETRAINED["corpus"],
    output:
        PRETRAINED_QUERIES_KEYS,
    log:
        "logs/paperC/pretrained/queries-keys-n{tokens}-p{passages}.log",
    benchmark:
        "benchmarks/paperC/pretrained/queries-keys-n{tokens}-p{passages}.tsv"
    wildcard_constraints:
        tokens=r"\d+",
        passages=r"\d+",
    conda:
        "../envs/pretrained.yaml"
    threads: 1
    resources:
        # weights in float64 (~200 MB) + Q, K (passages x 72 heads x n x 32 x 2 doubles)
        mem_mb=reserved_mem_mb(
            lambda wildcards: job_mem_mb(
                600 + int(wildcards.passages) * int(wildcards.tokens) // 20
            )
        ),
    script:
        f"{SCRIPTS}/paperC_C5_queries_keys.py"


rule paperC_pretrained_model_diagnostics:
    """Per-head score diagnostics of the model's passages: eigen-angles of U, V, normalised
    singular values, top-k energies, stable ranks."""
    input:
        PRETRAINED_QUERIES_KEYS,
    output:
        PRETRAINED_MODEL,
    log:
        "logs/{results}/paperC/pretrained/minilm-n{tokens}-p{passages}.log",
    benchmark:
        "benchmarks/{results}/paperC/pretrained/minilm-n{tokens}-p{passages}.tsv"
    wildcard_constraints:
        tokens=r"\d+",
        passages=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        # Q, K plus the eigen-angles (passages x 72 heads x 4 x n doubles)
        mem_mb=reserved_mem_mb(
            lambda wildcards: job_mem_mb(
                300 + int(wildcards.passages) * int(wildcards.tokens) // 10
            )
        ),
    params:
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C5_model_diagnostics.py"


rule paperC_pretrained_isotropic_reference:
    """The same diagnostics for isotropic (Haar) scores of the model's shape: the reference of
    C.5 and C.6."""
    output:
        PRETRAINED_ISOTROPIC,
    log:
        "logs/{results}/paperC/pretrained/isotropic-n{tokens}-d{width}-r{draws}.log",
    benchmark:
        "benchmarks/{results}/paperC/pretrained/isotropic-n{tokens}-d{width}-r{draws}.tsv"
    wildcard_constraints:
        tokens=r"\d+",
        width=r"\d+",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(
            lambda wildcards: job_mem_mb(
                300 + int(wildcards.draws) * int(wildcards.tokens) // 1000
            )
        ),
    params:
        store=config["store"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C5_isotropic_reference.py"


rule paperC_pretrained_control:
    """Controls of the eigen-angle diagnostic: aligned scores (known non-uniform angles) and
    local-attention scores, same pipeline (n <= head width)."""
    output:
        PRETRAINED_CONTROL,
    log:
        "logs/{results}/paperC/pretrained/control-{control}-n{tokens}-d{width}-r{draws}.log",
    benchmark:
        "benchmarks/{results}/paperC/pretrained/control-{control}-n{tokens}-d{width}-r{draws}.tsv"
    wildcard_constraints:
        control="aligned|local",
        tokens=r"\d+",
        width=r"\d+",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(
            lambda wildcards: job_mem_mb(
                300 + int(wildcards.draws) * int(wildcards.tokens) // 1000
            )
        ),
    params:
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C5_control.py"


rule paperC_pretrained_tests:
    """Two-sample KS and Mann-Whitney tests of the per-head eigen-angle distances against
    the Haar reference, their power, the share above its 95 % quantile."""
    input:
        model=PRETRAINED_DIAGNOSTICS["model_full_rank"],
        reference=PRETRAINED_DIAGNOSTICS["isotropic_full_rank"],
        aligned=PRETRAINED_DIAGNOSTICS["control_aligned"],
        local=PRETRAINED_DIAGNOSTICS["control_local"],
    output:
        PRETRAINED_TESTS,
    log:
        "logs/{results}/paperC/pretrained/eigen-angle-tests.log",
    benchmark:
        "benchmarks/{results}/paperC/pretrained/eigen-angle-tests.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(300)),
    params:
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperC_C5_tests.py"


rule paperC_CT2_evidence:
    """Evidence of C.5 and C.6 (registry rows C.5/minilm, C.5/control, C.6/minilm) with their
    declared alternatives (C.5/minilm's data mutant seeded per replicate)."""
    input:
        **PRETRAINED_DIAGNOSTICS,
        tests=PRETRAINED_TESTS,
    output:
        "{results}/paperC/evidence/C-T2-pretrained.npz",
    log:
        "logs/{results}/paperC/evidence/C-T2-pretrained.log",
    benchmark:
        "benchmarks/{results}/paperC/evidence/C-T2-pretrained.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="C-T2-pretrained",
        pretrained=PRETRAINED,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/evidence.py"


rule paperC_C5_figure:
    """Figure C5 from its tidy table: eigen-angles of the singular matrices of all-MiniLM-L6-v2's
    scores against uniform, the Haar reference and the controls, verdicts of C.5."""
    input:
        **{
            key: path.format(results=RESULTS)
            for key, path in PRETRAINED_DIAGNOSTICS.items()
        },
        tests=PRETRAINED_TESTS.format(results=RESULTS),
        claims=f"{RESULTS}/paperC/claims.csv",
        paper_scale=paper_scale_claims_of("C"),
        caption="workflow/report/paperC/C5-eigen-angles.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperC/C5-eigen-angles")),
    log:
        "logs/paperC/C5-figure.log",
    benchmark:
        "benchmarks/paperC/C5-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="C5-eigen-angles",
        pretrained=PRETRAINED,
    script:
        f"{SCRIPTS}/figure.py"


rule paperC_C6_figure:
    """Figure C6 from its tidy table: score spectra, top-k energies and attention stable ranks of
    all-MiniLM-L6-v2 against isotropic scores, verdicts of C.6."""
    input:
        model_long=PRETRAINED_DIAGNOSTICS["model_long"].format(results=RESULTS),
        isotropic_long=PRETRAINED_DIAGNOSTICS["isotropic_long"].format(results=RESULTS),
        claims=f"{RESULTS}/paperC/claims.csv",
        paper_scale=paper_scale_claims_of("C"),
        caption="workflow/report/paperC/C6-score-spectra.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperC/C6-score-spectra")),
    log:
        "logs/paperC/C6-figure.log",
    benchmark:
        "benchmarks/paperC/C6-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="C6-score-spectra",
        pretrained=PRETRAINED,
    script:
        f"{SCRIPTS}/figure.py"


rule paperC_CT2_table:
    """Table C-T2: per-layer/head diagnostics of all-MiniLM-L6-v2 with the eigen-angle tests,
    their power and the verdicts of C.5 and C.6."""
    input:
        **{
            key: path.format(results=RESULTS)
            for key, path in PRETRAINED_DIAGNOSTICS.items()
        },
        tests=PRETRAINED_TESTS.format(results=RESULTS),
        claims=f"{RESULTS}/paperC/claims.csv",
        paper_scale=paper_scale_claims_of("C"),
        caption="workflow/report/paperC/C-T2-pretrained.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **table_files(in_figures("paperC/C-T2-pretrained")),
    log:
        "logs/paperC/C-T2-table.log",
    benchmark:
        "benchmarks/paperC/C-T2-table.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    params:
        output_name="C-T2-pretrained",
        pretrained=PRETRAINED,
    script:
        f"{SCRIPTS}/table.py"


rule paperC_C7_stable_ranks:
    """Stable rank of every head of all-MiniLM-L6-v2 under both masks (the same scores) on
    the first full passages of n tokens (deterministic, shared by every replicate)."""
    input:
        corpus=PRETRAINED["corpus"],
    output:
        PRETRAINED_STABLE_RANKS,
    log:
        "logs/paperC/pretrained/stable-ranks-n{tokens}-max{passages}.log",
    benchmark:
        "benchmarks/paperC/pretrained/stable-ranks-n{tokens}-max{passages}.tsv"
    wildcard_constraints:
        tokens=r"\d+",
        passages=r"\d+",
    conda:
        "../envs/pretrained.yaml"
    threads: 1
    resources:
        # weights in float64 (~200 MB); one passage at a time (n x n matrices, n <= 512: < 10 MB)
        mem_mb=reserved_mem_mb(job_mem_mb(600)),
    script:
        f"{SCRIPTS}/paperC_C7_stable_ranks.py"


rule paperC_C7_figure:
    """Figure C7 from its tidy table: stable rank of all-MiniLM-L6-v2's attention against
    the passage length n, bidirectional and causal on the same scores, slopes on log n.
    """
    input:
        lengths=expand(
            PRETRAINED_STABLE_RANKS,
            tokens=STABLE_RANK_LENGTHS["tokens"],
            passages=STABLE_RANK_LENGTHS["max_passages"],
        ),
        caption="workflow/report/paperC/C7-pretrained-stable-rank.rst",
        config=CONFIG_SNAPSHOT,
    output:
        **figure_files(in_figures("paperC/C7-pretrained-stable-rank")),
    log:
        "logs/paperC/C7-figure.log",
    benchmark:
        "benchmarks/paperC/C7-figure.tsv"
    conda:
        "../envs/plot.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(800)),
    params:
        output_name="C7-pretrained-stable-rank",
        lengths=STABLE_RANK_LENGTHS,
    script:
        f"{SCRIPTS}/figure.py"
