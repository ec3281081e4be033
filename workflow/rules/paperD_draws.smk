# Paper D's simulations and the evidence of its registry rows: per parameter point one job
# computes all its draws (each seeded on its own, attnspec.papers.d.multihead), under {results} (one
# root per replicate) with the replicate passed to the random streams. Figures D1/D-T1 (table
# D.2 configurations), D2 (head counts), D3 (sharing schemes); rows D.1/<model>/<metric>,
# D.2/<scheme> and D.3/tied.


rule paperD_public_model:
    """All draws at one table D.2 configuration: the n eigenvalues of MHA_perp MHA_perp^T and of
    n^-1 MHA^G MHA^G^T from the same weights, per draw, with the floor of rows D.1 (a second
    Gaussian equivalent with independent noise) and the Gaussian equivalents of their
    alternatives (other coefficients, the same scores and noise)."""
    output:
        PUBLIC_MODEL_PATTERN,
    log:
        "logs/{results}/paperD/public-models/{model}/draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperD/public-models/{model}/draws{draws}.tsv"
    wildcard_constraints:
        model=r"[a-z0-9.\-]+",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(public_model_mem_mb),
    params:
        store=config["store"],
        beta=PUBLIC_MODELS_D["beta"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperD_public_model.py"


rule paperD_heads:
    """All draws of figure D2 at one head count h: the attention stage and the layer with V and
    W^O, softmax and Gaussian equivalent."""
    output:
        HEADS_PATTERN,
    log:
        "logs/{results}/paperD/heads/h{heads}/draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperD/heads/h{heads}/draws{draws}.tsv"
    wildcard_constraints:
        heads=r"\d+",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(heads_mem_mb),
    params:
        settings=HEADS_D,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperD_heads.py"


rule paperD_sharing:
    """All draws of figure D3 at one sharing scheme and n (rows D.2, D.3)."""
    output:
        SHARING_PATTERN,
    log:
        "logs/{results}/paperD/sharing/{scheme}/n{n_tokens}/draws{draws}.log",
    benchmark:
        "benchmarks/{results}/paperD/sharing/{scheme}/n{n_tokens}/draws{draws}.tsv"
    wildcard_constraints:
        scheme="independent|mqa|gqa|tied",
        n_tokens=r"\d+",
        draws=r"\d+",
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(sharing_mem_mb),
    params:
        store=config["store"],
        settings=SHARING_D,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/paperD_sharing.py"


rule paperD_public_models_evidence:
    """The samples of rows D.1/<model>/... (attnspec.papers.d.declared_tests): per draw the
    relative W1 and the KS of softmax against its Gaussian equivalent, raw (rows published-w1,
    published-ks: against the published means) and beyond the floor of two Gaussian equivalents
    (rows w1, ks: beyond the paper), and the same for softmax against each wrong Gaussian
    equivalent, at each judged table D.2 configuration."""
    input:
        draws=lambda wildcards: public_model_files(
            wildcards.results, JUDGED_PUBLIC_MODELS
        ),
    output:
        "{results}/paperD/evidence/public-models.npz",
    log:
        "logs/{results}/paperD/evidence/public-models.log",
    benchmark:
        "benchmarks/{results}/paperD/evidence/public-models.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="public-models",
        models=JUDGED_PUBLIC_MODELS,
        beta=PUBLIC_MODELS_D["beta"],
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/evidence.py"


rule paperD_sharing_evidence:
    """The samples of rows D.2/mqa, D.2/gqa and D.3/tied: KS distances of the softmax spectra to
    the independent-head and tied laws (and for D.2's alternative to the law of fewer heads) at
    the largest n (the notes give the means at every n), the laws' distance as the margins'
    unit."""
    input:
        draws=lambda wildcards: sharing_files(wildcards.results),
    output:
        "{results}/paperD/evidence/sharing.npz",
    log:
        "logs/{results}/paperD/evidence/sharing.log",
    benchmark:
        "benchmarks/{results}/paperD/evidence/sharing.tsv"
    conda:
        "../envs/simulate.yaml"
    threads: 1
    resources:
        mem_mb=reserved_mem_mb(job_mem_mb(400)),
    params:
        output_name="sharing",
        settings=SHARING_D,
        replicate=lambda wildcards: replicate_of(wildcards.results),
    script:
        f"{SCRIPTS}/evidence.py"
