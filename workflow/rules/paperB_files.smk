# Paper B's config sections and the files of its draws under a results root (functions used by
# paperB_sticking.smk and paperB_theory.smk): per parameter point all draws in one file
# (draws<count>.npz) for ell <= BATCHED_UP_TO, else one file per draw.

from attnspec.papers.b.conditional import key_dimension
from attnspec.papers.draw_batches import is_batched
from attnspec.papers.b.sticking import (
    sticking_job_mem_mb,
    sticking_jobs,
    whole_width_step,
)

STICKING = config["paperB"]["sticking"]
RATIO_SCAN = config["paperB"]["ratio_scan"]
STICKING_JOBS = sticking_jobs(STICKING, RATIO_SCAN)
STICKING_FOLDER = "{results}/paperB/sticking/ell{n_tokens}-c{ratio}"


def sticking_point_files(results, n_tokens, ratio):
    """The files of every draw at one (ell, c) under a results root: one file of all draws
    (draws<count>.npz) for ell <= BATCHED_UP_TO, else one file per draw."""
    folder = STICKING_FOLDER.format(
        results=results, n_tokens=int(n_tokens), ratio=repr(float(ratio))
    )
    draws = STICKING_JOBS[(int(n_tokens), float(ratio))].draws
    if is_batched(n_tokens):
        return [f"{folder}/draws{draws}.npz"]
    return [f"{folder}/draw{draw}.npz" for draw in range(draws)]


def sticking_files(results, ratio=None):
    """Every sticking file under a results root, or those at one c."""
    return [
        path
        for ell, c in STICKING_JOBS
        if ratio is None or c == float(ratio)
        for path in sticking_point_files(results, ell, c)
    ]


def sticking_job(wildcards):
    return STICKING_JOBS[(int(wildcards.n_tokens), float(wildcards.ratio))]._asdict()


def sticking_mem_mb(wildcards):
    """A draw, or a batch of draws computed one after the other, at (ell, c): the measured
    memory model of attnspec.papers.b.sticking plus the job's Snakemake processes."""
    return job_mem_mb(
        sticking_job_mem_mb(int(wildcards.n_tokens), float(wildcards.ratio))
    )


EDGES = config["paperB"]["edges"]
CONDITIONAL = config["paperB"]["conditional"]
CONDITIONAL_FOLDER = "{results}/paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}"


def conditional_files(results):
    """Every conditional draw under a results root, ell ascending: per ell one file of all
    draws (draws<count>.npz) for ell <= BATCHED_UP_TO, else one file per draw."""
    files = []
    for n_tokens in sorted(CONDITIONAL["n_tokens"]):
        folder = CONDITIONAL_FOLDER.format(
            results=results,
            n_tokens=n_tokens,
            d_qk=key_dimension(n_tokens, CONDITIONAL["ratio"]),
            beta=repr(float(CONDITIONAL["beta"])),
        )
        if is_batched(n_tokens):
            files.append(f"{folder}/draws{CONDITIONAL['draws']}.npz")
        else:
            files += [
                f"{folder}/draw{draw}.npz" for draw in range(CONDITIONAL["draws"])
            ]
    return files


def conditional_mem_mb(wildcards):
    return dense_job_mem_mb(wildcards.n_tokens, copies=3)


declare_memory(
    "paperB.sticking.n_tokens",
    STICKING["n_tokens"],
    lambda ell: job_mem_mb(sticking_job_mem_mb(ell, 1.0)),
)
declare_memory(
    "paperB.ratio_scan.n_tokens",
    RATIO_SCAN["n_tokens"],
    lambda ell: max(
        job_mem_mb(sticking_job_mem_mb(ell, float(c))) for c in RATIO_SCAN["ratios"]
    ),
    step=whole_width_step(RATIO_SCAN["ratios"]),
)
declare_memory(
    "paperB.conditional.n_tokens",
    CONDITIONAL["n_tokens"],
    lambda ell: dense_job_mem_mb(ell, copies=3),
)


PAPER_PRESET = "config/paper.yaml"


def paper_preset():
    """The paper preset (figure B7 draws its sticking grid beside this preset's)."""
    import yaml

    with open(PAPER_PRESET, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def stored_sticking_files(ratio):
    """The paper preset's committed sticking draws (its store) at c = ``ratio`` and at the sizes
    of its grid that this preset does not simulate; only those present in the store."""
    from attnspec.workflow.store import entry_paths

    preset = paper_preset()
    grid = preset["paperB"]["sticking"]
    files = []
    for ell in grid["n_tokens"]:
        if ell in STICKING["n_tokens"] or is_batched(ell) or not preset["store"]:
            continue
        folder = STICKING_FOLDER.format(
            results="results", n_tokens=ell, ratio=repr(float(ratio))
        )
        for draw in range(grid["draws"]):
            npz, _ = entry_paths(preset["store"], f"{folder}/draw{draw}.npz")
            if npz.is_file():
                files.append(str(npz))
    return files
