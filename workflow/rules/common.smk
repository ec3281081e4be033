# Shared definitions: config sections, file-name patterns and resource estimates used by the rules.

import re
from pathlib import Path

from attnspec.workflow.memorycheck import (
    MemoryDemand,
    job_memory_limit,
    retry_reservation_mb,
)
from attnspec.workflow.publish import receipt_of
from attnspec.models.gaussian_equivalent import STEPWISE_MODELS as MODEL_NAMES
from attnspec.papers.a.bulk_laws_evidence import JUDGED_BETAS as EDGE_SHARE_BETAS
from attnspec.papers.outputs import Evidence, Figure, Table, names_of
from attnspec.papers.registry import ROOMS

STEPWISE = config["paperA"]["stepwise"]

# The rules' scripts, in the repository's top-level scripts/ folder. workflow.basedir is the
# folder of the top-level Snakefile (the repository root); a relative script: path would be read
# from the folder of the .smk file that holds the rule.
SCRIPTS = f"{workflow.basedir}/scripts"

# Scales (config key scale): the default and CI presets write the committed outputs under
# figures/ and their simulations under results/; the paper preset under figures/paper-scale/
# and results/paper-scale/, so that both scales are kept side by side.
FIGURES = "figures/paper-scale" if config["scale"] == "paper" else "figures"
RESULTS_BASE = "results/paper-scale" if config["scale"] == "paper" else "results"


def in_figures(path):
    """``path`` under this scale's committed outputs (FIGURES)."""
    return f"{FIGURES}/{path}"


# Replicates: replicate 0 keeps the default random streams and writes under RESULTS_BASE;
# replicate r >= 1 re-keys every stream (attnspec.seeding) and writes under
# RESULTS_BASE/replicate<r>/. Rules that simulate or judge take the root as the wildcard
# {results}; the figures and tables read the configured replicate's root RESULTS.
REPLICATE = int(config["replicate"])


def results_root(replicate):
    """RESULTS_BASE for replicate 0, RESULTS_BASE/replicate<r> for r >= 1."""
    replicate = int(replicate)
    return RESULTS_BASE if replicate == 0 else f"{RESULTS_BASE}/replicate{replicate}"


def replicate_of(results):
    """The replicate whose results root is ``results`` (the {results} wildcard)."""
    if results == RESULTS_BASE:
        return 0
    return int(results.removeprefix(f"{RESULTS_BASE}/replicate"))


RESULTS = results_root(REPLICATE)
# Version and code commit (set by attnspec.workflow.startup), recorded in the config snapshot and
# every caption; the snapshot holds the checked config without it.
PROVENANCE = config["provenance"]
CHECKED_CONFIG = {key: value for key, value in config.items() if key != "provenance"}
# The replicates of target `replicates` (besides replicate 0): their judged simulations only.
EXTRA_REPLICATES = [1, 2]


wildcard_constraints:
    results=re.escape(RESULTS_BASE) + r"(/replicate[1-9]\d*)?",


# The figures, tables and evidence files of each paper, as its room lists them
# (attnspec/papers/<room>/outputs.py): names under figures/paper<X>/ and, for evidence,
# {results}/paper<X>/evidence/<name>.npz, the samples every registry row is judged on.
FIGURES_OF = {room.upper(): names_of(room.upper(), Figure) for room in ROOMS}
TABLES_OF = {room.upper(): names_of(room.upper(), Table) for room in ROOMS}
EVIDENCE_OF = {room.upper(): names_of(room.upper(), Evidence) for room in ROOMS}


def evidence_files(results, paper):
    """The evidence files of one paper under one results root."""
    return [
        f"{results}/paper{paper}/evidence/{source}.npz" for source in EVIDENCE_OF[paper]
    ]


# Report categories (snakemake --report): one per paper; subcategories are figure and table ids.
PAPER_CATEGORIES = {
    "A": "Paper A: Gaussian equivalence",
    "B": "Paper B: bulk-edge sticking",
    "C": "Paper C: spectral degeneration",
    "D": "Paper D: multi-head attention",
}


# The paper preset's judged rows, committed by its run: the default preset's dashboard and
# figures show them beside its own when they exist (the CI preset's do not: its sizes are for the
# tests).
def paper_scale_claims_of(paper):
    """The paper preset's claims table of one paper, where it exists, for the default preset's
    figures of that paper (their captions give both scales' verdicts)."""
    path = f"figures/paper-scale/paper{paper}/claims.csv"
    return [path] if config["scale"] == "default" and os.path.exists(path) else []


def paper_scale_claims(wildcards):
    """The paper preset's claims tables for the default preset's dashboard, where they exist."""
    return [path for paper in PAPER_CATEGORIES for path in paper_scale_claims_of(paper)]


# The run's config snapshot (rule config_snapshot), an input of every figure and table and of
# every target: on a fresh clone it is missing, so the targets make it, and every committed
# figure and table older than it is recomputed (Snakemake does not rerun a job only because its
# intermediate inputs are missing; the targets asking for the snapshot itself make sure it is).
CONFIG_SNAPSHOT = f"{RESULTS_BASE}/config.yaml"


# Extensions of every figure's files; the vector PDF only when the preset asks for it.
FIGURE_EXTENSIONS = (["pdf"] if config["vector_pdfs"] else []) + ["png", "csv", "md"]


# Committed outputs (figures/) are replaced only by complete, checked new ones
# (attnspec.workflow.publish): their rules flag them update(), so Snakemake neither deletes them
# before the job nor after it fails; the job's script (publish.run_staged) writes them under
# results/staged/ and swaps each in when all are written, then writes the job's receipt
# results/published/<stem>.sha256. Targets ask for the receipts: a failed job has none, and the
# Snakefile removes a receipt whose files have changed since; in both cases the job runs again.
def committed(path):
    """A committed output (flagged update())."""
    return update(path)


def receipt(stem):
    """The receipt of the job writing ``figures/<...>/<name>.*`` from ``stem`` =
    ``figures/<...>/<name>``: results/published/<...>/<name>.sha256."""
    return str(receipt_of(stem))


def receipts(paper, items):
    """The receipts of the jobs writing ``figures/paper<X>/<item>.*`` for each item."""
    return [receipt(in_figures(f"paper{paper}/{item}")) for item in items]


def figure_files(stem):
    """The outputs of the figure ``figures/paper<X>/<id>`` by name; ``png`` (in the report),
    ``plotted`` (the tidy CSV it is drawn from), ``caption`` (Markdown), when config
    vector_pdfs is set ``pdf``, and the receipt ``published``."""
    files = {
        "png": reported(f"{stem}.png"),
        "plotted": committed(f"{stem}.csv"),
        "caption": committed(f"{stem}.md"),
    }
    if config["vector_pdfs"]:
        files["pdf"] = committed(f"{stem}.pdf")
    files["published"] = receipt(stem)
    return files


def table_files(stem):
    """The outputs of the table ``figures/paper<X>/<id>`` by name: ``csv`` (in the report),
    ``md``, ``tex`` and the receipt ``published``."""
    return {
        "csv": reported(f"{stem}.csv"),
        "md": committed(f"{stem}.md"),
        "tex": committed(f"{stem}.tex"),
        "published": receipt(stem),
    }


def reported(path):
    """The committed output ``figures/paper<X>/<id>.<ext>`` registered in the report under
    paper X (category) and <id> (subcategory), captioned by workflow/report/paper<X>/<id>.rst,
    labelled by paper, id and kind (figure or table)."""
    folder, item = Path(path).parent.name, Path(path).stem
    paper = folder.removeprefix("paper")
    return report(
        committed(path),
        caption=f"../report/{folder}/{item}.rst",
        category=PAPER_CATEGORIES[paper],
        subcategory=item,
        labels={
            "paper": paper,
            "item": item,
            "kind": "table" if item[1:3] == "-T" else "figure",
        },
    )


# Per config key that sets a size: the preset's sizes and a job's mem_mb at a size (the
# function its rule reserves with), checked against the job memory limit before any job
# (attnspec.workflow.memorycheck, called from the Snakefile).
MEMORY_DEMANDS = []


def declare_memory(key, sizes, mem_mb_at, step=1):
    MEMORY_DEMANDS.append(
        MemoryDemand(key, tuple(int(s) for s in sizes), mem_mb_at, int(step))
    )


# Paper A's spectra: one job per parameter point (ell, d_qk, beta, sampler) computes every model
# and draw that any consumer needs there (attnspec.papers.spectra.model_spectra, each draw
# seeded on its own); {models} lists the models ("+"-joined, in the order of MODEL_NAMES).
SPECTRUM_BATCH_PATTERN = (
    "{results}/paperA/spectra/ell{n_tokens}-dqk{d_qk}-beta{beta}-{sampler}/"
    "{models}-draws{draws}.npz"
)


def sampler_tag(sampler, d_model=None):
    """Path segment naming the sampler: gaussian, or literal-d<d_model> (X has d_model columns)."""
    return f"literal-d{d_model}" if sampler == "literal" else "gaussian"


def ratio_panels(ratios):
    """A7 panels: one per c with d_qk = round(ell / c), then the literal-X case with
    d = round(ell / gamma) and c = 1."""
    n_tokens = ratios["n_tokens"]
    return [
        {"sampler": "gaussian", "d_qk": max(1, round(n_tokens / c)), "d_model": None}
        for c in ratios["ratios"]
    ] + [
        {
            "sampler": "literal",
            "d_qk": n_tokens,
            "d_model": round(n_tokens / ratios["literal_gamma"]),
        }
    ]


def _spectrum_point(n_tokens, d_qk, beta, sampler="gaussian", d_model=None):
    return (int(n_tokens), int(d_qk), repr(float(beta)), sampler_tag(sampler, d_model))


def _spectrum_requests(paper):
    """(point, model, draws) of every paper A consumer of spectra (figures A1, A3, A4, A5, A7,
    table A-T2 and their evidence)."""
    stepwise = paper["stepwise"]
    point = [stepwise[k] for k in ("n_tokens", "d_qk", "beta", "sampler", "d_model")]
    for model in MODEL_NAMES:
        yield _spectrum_point(*point), model, stepwise["draws"]
    laws = paper["bulk_laws"]
    for beta in laws["betas"]:
        for model in ("attention", "linear"):
            point = _spectrum_point(laws["n_tokens"], laws["d_qk"], beta)
            yield point, model, laws["draws"]
    edge = paper["edge_curve"]
    for beta in edge["simulated_betas"]:
        point = _spectrum_point(edge["n_tokens"], edge["n_tokens"], beta)
        yield point, "linear", edge["draws"]
    linearisation = paper["linearisation"]
    for n_tokens in linearisation["n_tokens"]:
        for beta in linearisation["betas"]:
            for model in ("attention", "linear"):
                point = _spectrum_point(n_tokens, n_tokens, beta)
                yield point, model, linearisation["draws"]
    ratios = paper["ratios"]
    for panel in ratio_panels(ratios):
        point = _spectrum_point(
            ratios["n_tokens"],
            panel["d_qk"],
            ratios["beta"],
            panel["sampler"],
            panel["d_model"],
        )
        yield point, "attention", ratios["draws"]


def spectrum_batches(paper):
    """Per parameter point, the models its job computes and their draw count: the most that
    any consumer needs there."""
    models, draws = {}, {}
    for point, model, count in _spectrum_requests(paper):
        models.setdefault(point, set()).add(model)
        draws[point] = max(draws.get(point, 0), int(count))
    return {
        point: {
            "models": [m for m in MODEL_NAMES if m in models[point]],
            "draws": draws[point],
        }
        for point in models
    }


SPECTRUM_BATCHES = spectrum_batches(config["paperA"])


def spectrum_batch(
    results, model, n_tokens, d_qk, beta, sampler="gaussian", d_model=None
):
    """The batch file holding ``model``'s draws at one parameter point (beta by its repr)."""
    point = _spectrum_point(n_tokens, d_qk, beta, sampler, d_model)
    batch = SPECTRUM_BATCHES[point]
    if model not in batch["models"]:
        raise ValueError(f"no paper A consumer asks for {model} at {point}")
    return SPECTRUM_BATCH_PATTERN.format(
        results=results,
        n_tokens=point[0],
        d_qk=point[1],
        beta=point[2],
        sampler=point[3],
        models="+".join(batch["models"]),
        draws=batch["draws"],
    )


def spectra_batch_mem_mb(models, draws, n_tokens):
    """mem_mb of a spectra batch: dense ell x ell copies of its costliest model (6 with the
    conditional Gaussian models, 4 otherwise) plus the batch's spectra."""
    copies = 6 if any(m.startswith("conditional") for m in models) else 4
    stored = len(models) * int(draws) * int(n_tokens) * 8 // 1_000_000
    return dense_job_mem_mb(n_tokens, copies=copies) + stored


def spectra_mem_mb(wildcards):
    return spectra_batch_mem_mb(
        wildcards.models.split("+"), wildcards.draws, wildcards.n_tokens
    )


for _section, _models in {
    "stepwise": MODEL_NAMES,
    "bulk_laws": ("attention", "linear"),
    "edge_curve": ("linear",),
    "linearisation": ("attention", "linear"),
    "ratios": ("attention",),
}.items():
    _sizes = config["paperA"][_section]["n_tokens"]
    declare_memory(
        f"paperA.{_section}.n_tokens",
        _sizes if isinstance(_sizes, list) else [_sizes],
        lambda n, models=_models, draws=config["paperA"][_section]["draws"]: (
            spectra_batch_mem_mb(models, draws, n)
        ),
    )


def bulk_laws_spectra(results, model):
    """The batch of ``model`` at each beta of paperA.bulk_laws."""
    laws = config["paperA"]["bulk_laws"]
    return [
        spectrum_batch(results, model, laws["n_tokens"], laws["d_qk"], beta)
        for beta in laws["betas"]
    ]


# The beta of the registry row A.3/beta=1 (paperA.linearisation must simulate it).
EQUIVALENCE_BETA = 1.0


def equivalence_spectra(results, model):
    """The batch of ``model`` at each ell of paperA.linearisation, beta = EQUIVALENCE_BETA."""
    return [
        spectrum_batch(results, model, ell, ell, EQUIVALENCE_BETA)
        for ell in config["paperA"]["linearisation"]["n_tokens"]
    ]


# The points of the rows A.4/beta=<beta> (paperA.linearisation must simulate their betas,
# EDGE_SHARE_BETAS): every ell of paperA.linearisation at each judged beta, c = 1.
EDGE_SHARE_POINTS = [
    {"n_tokens": ell, "beta": beta}
    for beta in EDGE_SHARE_BETAS
    for ell in config["paperA"]["linearisation"]["n_tokens"]
]


def edge_share_spectra(results, model):
    """The batch of ``model`` at each point of EDGE_SHARE_POINTS (d_qk = ell)."""
    return [
        spectrum_batch(results, model, p["n_tokens"], p["n_tokens"], p["beta"])
        for p in EDGE_SHARE_POINTS
    ]


# One job per beta computes every ell of paperA.perron (ell <= a few thousand: a few seconds).
PERRON_PATTERN = "{results}/paperA/perron/beta{beta}-draws{draws}.npz"


def perron_files(results):
    """The Perron batch of each beta of paperA.perron."""
    perron = config["paperA"]["perron"]
    return [
        PERRON_PATTERN.format(
            results=results, beta=repr(float(beta)), draws=perron["draws"]
        )
        for beta in perron["betas"]
    ]


# Memory every job holds besides its script: on a SLURM cluster the job's two Snakemake processes
# (batch step and srun step; their measured size: docs/benchmark.md), counted against the job's
# limit. Locally it only makes the reservation conservative.
SNAKEMAKE_JOB_MB = 400


def job_mem_mb(script_mb):
    """mem_mb of a job whose script needs ``script_mb`` (interpreter and arrays)."""
    return SNAKEMAKE_JOB_MB + int(script_mb)


# The most memory one job may have (config job_memory_limit_mb, --resources mem_mb or this
# machine's memory; None on a cluster without job_memory_limit_mb): every job's first attempt is
# checked against it before any job (the Snakefile), and a retry's reservation is capped there.
JOB_MEMORY_LIMIT_MB, JOB_MEMORY_LIMIT_SOURCE = job_memory_limit(
    config.get("job_memory_limit_mb"),
    getattr(
        workflow.global_resources.get("mem_mb"),
        "value",
        workflow.global_resources.get("mem_mb"),
    ),
    local=workflow.local_exec,
)


def reserved_mem_mb(first_attempt_mb):
    """A rule's mem_mb resource: ``first_attempt_mb`` (MB, or a function of the wildcards) on the
    first attempt, attempt x that on a retry (a job killed for memory gets more), capped at
    JOB_MEMORY_LIMIT_MB (attnspec.workflow.memorycheck.retry_reservation_mb)."""

    def mem_mb(wildcards, attempt):
        first = (
            first_attempt_mb(wildcards)
            if callable(first_attempt_mb)
            else first_attempt_mb
        )
        return retry_reservation_mb(first, attempt, JOB_MEMORY_LIMIT_MB)

    return mem_mb


def dense_job_mem_mb(n_tokens, copies=4):
    """mem_mb of a dense ell x ell job: a few float64 copies plus the interpreter (300 MB)."""
    return job_mem_mb(300 + copies * int(n_tokens) ** 2 * 8 // 1_000_000)


def full_spectrum_mem_mb(n_tokens, draws):
    """Figure A2's job: four dense ell x ell copies and every draw's ell values."""
    return (
        dense_job_mem_mb(n_tokens, copies=4)
        + int(draws) * int(n_tokens) * 8 // 1_000_000
    )


def perron_mem_mb(n_tokens):
    """Figure A6's job: 4 copies of ell^2 doubles measured at the largest ell (629 MiB peak at
    ell = 4096), and one spare."""
    return dense_job_mem_mb(n_tokens, copies=5)


def lanczos_job_mem_mb(n_tokens):
    """Paper C's Lanczos jobs: per matrix a few O(n) vectors and the Lanczos basis (r + 6
    values), ~2 kB per n."""
    return job_mem_mb(300 + 2000 * int(n_tokens) // 1_000_000)
