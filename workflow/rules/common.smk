# Shared definitions: config sections, file-name patterns and resource estimates used by the rules.

from pathlib import Path

from attnspec.models.gaussian_equivalent import STEPWISE_MODELS as MODEL_NAMES

STEPWISE = config["paperA"]["stepwise"]

# Replicates: replicate 0 keeps the default random streams and writes under results/; replicate
# r >= 1 re-keys every stream (attnspec.seeding) and writes under results/replicate<r>/. Rules
# that simulate or judge take the root as the wildcard {results}; the figures and tables read the
# configured replicate's root RESULTS.
REPLICATE = int(config["replicate"])


def results_root(replicate):
    """results for replicate 0, results/replicate<r> for r >= 1."""
    return "results" if int(replicate) == 0 else f"results/replicate{int(replicate)}"


def replicate_of(results):
    """The replicate whose results root is ``results`` (the {results} wildcard)."""
    return 0 if results == "results" else int(results.removeprefix("results/replicate"))


RESULTS = results_root(REPLICATE)
# Version and code commit (set by workflow/Snakefile), recorded in the config snapshot and every
# caption; the snapshot holds the checked config without it.
PROVENANCE = config["provenance"]
CHECKED_CONFIG = {key: value for key, value in config.items() if key != "provenance"}
# The replicates of target `replicates` (besides replicate 0): their judged simulations only.
EXTRA_REPLICATES = [1, 2]


wildcard_constraints:
    results=r"results(/replicate[1-9]\d*)?",


PAPER_A_FIGURES = [
    "A1-stepwise",
    "A2-spectrum",
    "A3-bulk-laws",
    "A4-edge",
    "A5-linearisation",
    "A6-perron",
    "A7-ratios",
]
PAPER_A_TABLES = ["A-T1-edges", "A-T2-stepwise"]
PAPER_B_FIGURES = [
    "B1-sticking",
    "B2-gap",
    "B3-uniform",
    "B4-edge-formula",
    "B5-conditional-edges",
    "B6-population",
]
PAPER_B_TABLES = ["B-T1-sticking", "B-T2-edge-formulas"]
PAPER_C_FIGURES = [
    "C1-spectra",
    "C2-bulk",
    "C3-stable-rank",
    "C4-spike-survival",
    "C5-pretrained",
]
PAPER_C_TABLES = ["C-T1-stable-rank", "C-T2-pretrained"]
# The evidence files of each paper, {results}/paper<X>/evidence/<source>.npz: the samples every
# registry row (attnspec.registry) is judged on, written by one evidence rule each.
EVIDENCE_SOURCES = {
    "A": ["A-T2-stepwise", "A3-bulk-laws", "A5-linearisation", "A6-perron"],
    "B": ["sticking", "conditional", "edge-formulas"],
    "C": ["C-T1-stable-rank", "C-T2-pretrained"],
}


def evidence_files(results, paper):
    """The evidence files of one paper under one results root."""
    return [
        f"{results}/paper{paper}/evidence/{source}.npz"
        for source in EVIDENCE_SOURCES[paper]
    ]


# Report categories (snakemake --report): one per paper; subcategories are figure and table ids.
PAPER_CATEGORIES = {
    "A": "Paper A: Gaussian equivalence",
    "B": "Paper B: bulk-edge sticking",
    "C": "Paper C: spectral degeneration",
}


def reported(path):
    """``figures/paper<X>/<id>.<ext>`` registered in the report under paper X (category) and
    <id> (subcategory), captioned by workflow/report/paper<X>/<id>.rst, labelled by paper, id
    and kind (figure or table)."""
    folder, item = Path(path).parent.name, Path(path).stem
    paper = folder.removeprefix("paper")
    return report(
        path,
        caption=f"../report/{folder}/{item}.rst",
        category=PAPER_CATEGORIES[paper],
        subcategory=item,
        labels={
            "paper": paper,
            "item": item,
            "kind": "table" if item[1:3] == "-T" else "figure",
        },
    )


SPECTRUM_PATTERN = (
    "results/paperA/spectra/{model}/"
    "ell{n_tokens}-dqk{d_qk}-beta{beta}-{sampler}/draw{draw}.npz"
)


def sampler_tag(sampler, d_model=None):
    """Path segment naming the sampler: gaussian, or literal-d<d_model> (X has d_model columns)."""
    return f"literal-d{d_model}" if sampler == "literal" else "gaussian"


def spectrum_files(
    model, n_tokens, d_qk, beta, draws, sampler="gaussian", d_model=None
):
    """The per-draw spectrum files of one model at one parameter point (beta by its repr)."""
    return [
        SPECTRUM_PATTERN.format(
            model=model,
            n_tokens=n_tokens,
            d_qk=d_qk,
            beta=repr(float(beta)),
            sampler=sampler_tag(sampler, d_model),
            draw=draw,
        )
        for draw in range(draws)
    ]


def stepwise_spectrum_files():
    """Every draw of every A1 model, models in the order of the figure."""
    return [
        path
        for model in MODEL_NAMES
        for path in spectrum_files(
            model,
            STEPWISE["n_tokens"],
            STEPWISE["d_qk"],
            STEPWISE["beta"],
            STEPWISE["draws"],
            STEPWISE["sampler"],
            STEPWISE["d_model"],
        )
    ]


# Memory every job holds besides its script: on a SLURM cluster the job's two Snakemake processes
# (batch step and srun step, about 190 MB resident each, measured), counted against the job's
# limit. Locally it only makes the reservation conservative.
SNAKEMAKE_JOB_MB = 400


def job_mem_mb(script_mb):
    """mem_mb of a job whose script needs ``script_mb`` (interpreter and arrays)."""
    return SNAKEMAKE_JOB_MB + int(script_mb)


def dense_job_mem_mb(n_tokens, copies=4):
    """mem_mb of a dense ell x ell job: a few float64 copies plus the interpreter (300 MB)."""
    return job_mem_mb(300 + copies * int(n_tokens) ** 2 * 8 // 1_000_000)
