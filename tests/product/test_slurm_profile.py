"""The SLURM profile: a dry run with the paper preset in a fresh copy plans the expected jobs."""

import re
from collections import Counter

import pytest
import yaml
from conftest import REPO, run, tool, tracked_copy

PROFILE = REPO / "profiles" / "slurm" / "profile.yaml"
SLURM_DRY_RUN = ["-n", "--profile", "profiles/slurm", "--configfile", "config/paper.yaml"]


def job_counts(dry_run_output: str) -> Counter:
    """Jobs per rule from the first "Job stats" table of a dry run."""
    table = dry_run_output.split("Job stats:")[1].split("\ntotal")[0]
    return Counter(
        {name: int(count) for name, count in re.findall(r"^(\w+)\s+(\d+)\s*$", table, flags=re.M)}
    )


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A fresh copy: nothing built, so the dry run plans every job of the preset."""
    return tracked_copy(tmp_path_factory.mktemp("slurm"))


@pytest.fixture(scope="module")
def slurm_dry_run(clone) -> str:
    return run([tool("snakemake"), *SLURM_DRY_RUN], cwd=clone).stdout


@pytest.fixture(scope="module")
def workflow_rules(clone) -> set[str]:
    """The copy's rules (``--list-rules`` prints each name first, docstrings indented after)."""
    listing = run([tool("snakemake"), "--list-rules"], cwd=clone).stdout.splitlines()
    return {line.split()[0] for line in listing if line and not line[0].isspace()}


@pytest.fixture(scope="module")
def paper():
    return yaml.safe_load((REPO / "config" / "paper.yaml").read_text())


def spectrum_batches(paper) -> set[tuple]:
    """Every (ell, d_qk, beta, sampler, models, draws) spectra batch of paper A (papers.md
    section 6), built from the preset: one job per parameter point computes every model any
    figure needs there, with the most draws any of them asks for."""
    a = paper["paperA"]
    step, bulk, edge, lin, ratios = (
        a[key] for key in ("stepwise", "bulk_laws", "edge_curve", "linearisation", "ratios")
    )
    sampler = f"literal-d{step['d_model']}" if step["sampler"] == "literal" else "gaussian"
    stepwise_models = ("mean_normaliser", "entrywise", "conditional_gaussian")
    stepwise_models += ("conditional_gaussian_linear", "linear", "attention")
    requests = []  # (point, model, draws)
    point = (step["n_tokens"], step["d_qk"], float(step["beta"]), sampler)
    requests += [(point, model, step["draws"]) for model in stepwise_models]  # A1
    for beta in bulk["betas"]:  # A3
        point = (bulk["n_tokens"], bulk["d_qk"], float(beta), "gaussian")
        requests += [(point, model, bulk["draws"]) for model in ("attention", "linear")]
    for beta in edge["simulated_betas"]:  # A4: Y_lin, c = 1
        requests.append(((edge["n_tokens"], edge["n_tokens"], float(beta), "gaussian"),
                         "linear", edge["draws"]))  # fmt: skip
    for ell in lin["n_tokens"]:  # A5 (and the ell trend of A-T2, at beta = 1 among them)
        for beta in lin["betas"]:
            point = (ell, ell, float(beta), "gaussian")
            requests += [(point, model, lin["draws"]) for model in ("attention", "linear")]
    ell = ratios["n_tokens"]  # A7: d_qk = ell / c, then the literal X with d = ell / gamma
    widths = [(round(ell / c), "gaussian") for c in ratios["ratios"]]
    widths.append((ell, f"literal-d{round(ell / ratios['literal_gamma'])}"))
    for d_qk, kind in widths:
        requests.append(((ell, d_qk, float(ratios["beta"]), kind), "attention", ratios["draws"]))
    models, draws = {}, {}
    for point, model, count in requests:
        models.setdefault(point, set()).add(model)
        draws[point] = max(draws.get(point, 0), count)
    return {(*point, frozenset(models[point]), draws[point]) for point in models}


@pytest.mark.slow  # a copy of the repository and Snakemake dry runs (module fixtures)
def test_dry_run_plans_every_job_of_the_preset(clone, slurm_dry_run, workflow_rules):
    # the same jobs as a forced local dry run of the same copy: every rule the preset needs
    # (new rules included), nothing skipped, and the profile changes only where jobs run
    forced = run(
        [tool("snakemake"), "-n", "-F", "--cores", "2", "--configfile", "config/paper.yaml"],
        cwd=clone,
    ).stdout
    assert job_counts(slurm_dry_run) == job_counts(forced)
    assert set(job_counts(slurm_dry_run)) <= workflow_rules
    total = sum(job_counts(slurm_dry_run).values())
    assert total > 200  # the cheap draws run many to a job (it was > 900 before)
    cluster_doc = " ".join((REPO / "docs" / "cluster.md").read_text().split())
    assert f"plans {total} jobs in a fresh clone" in cluster_doc


@pytest.mark.slow  # a copy of the repository and Snakemake dry runs (module fixtures)
def test_per_draw_rules_have_the_counts_of_the_preset(slurm_dry_run, paper):
    counts = job_counts(slurm_dry_run)
    a, b, c = paper["paperA"], paper["paperB"], paper["paperC"]["canonical"]
    d = paper["paperD"]
    # one job per (ell, c, draw), or per (ell, c) for ell <= 2048 (all its draws); the c = 1
    # runs serve every beta and the ratio scan
    scan, conditional = b["ratio_scan"], b["conditional"]
    sticking = {
        (ell, 1.0, draw)
        for ell in b["sticking"]["n_tokens"]
        for draw in range(b["sticking"]["draws"])
    }
    sticking |= {
        (ell, float(ratio), draw)
        for ratio in scan["ratios"]
        for ell in scan["n_tokens"]
        for draw in range(scan["draws"])
    }
    batched = {(ell, ratio) for ell, ratio, _ in sticking if ell <= 2048}
    expected = {
        "paperA_spectra": len(spectrum_batches(paper)),
        "paperA_A2_spectra": 1,  # every draw of figure A2 in one job
        "paperA_A6_simulate": len(a["perron"]["betas"]),  # every ell and draw of one beta
        "paperB_sticking_draw": sum(ell > 2048 for ell, _, _ in sticking),
        "paperB_sticking_batch": len(batched),
        "paperB_conditional_draw": sum(ell > 2048 for ell in conditional["n_tokens"])
        * conditional["draws"],
        "paperB_conditional_batch": sum(ell <= 2048 for ell in conditional["n_tokens"]),
        "paperC_C3_stable_rank": len(c["stable_rank"]["n_tokens"]),
        "paperC_C3_gaussian": len(c["gaussian_model"]["n_tokens"]),
        "paperC_C3_isotropic": len(c["isotropic"]["n_tokens"]),
        "paperC_C4_survival": len(c["survival"]["n_tokens"]),
        "paperC_pretrained_queries_keys": 2,  # full-rank and long passages
        "paperC_pretrained_model_diagnostics": 2,
        "paperC_pretrained_isotropic_reference": 2,
        "claims_table": 4,  # one per paper
        "paperD_public_model": len(d["public_models"]["models"]),
        "paperD_heads": len(d["heads"]["head_counts"]),
        "paperD_sharing": len(d["sharing"]["schemes"]) * len(d["sharing"]["n_tokens"]),
    }
    assert {rule: counts[rule] for rule in expected} == expected


@pytest.mark.slow  # a copy of the repository and Snakemake dry runs (module fixtures)
def test_spectrum_batches_are_those_the_figures_need(slurm_dry_run, paper):
    planned = {
        (int(ell), int(d_qk), float(beta), sampler, frozenset(models.split("+")), int(draws))
        for ell, d_qk, beta, sampler, models, draws in re.findall(
            r"output: results/paper-scale/paperA/spectra/ell(\d+)-dqk(\d+)-beta([\d.]+)-([\w-]+)/"
            r"([\w+]+)-draws(\d+)\.npz",
            slurm_dry_run,
        )
    }
    assert planned == spectrum_batches(paper)


@pytest.mark.slow  # a copy of the repository and Snakemake dry runs (module fixtures)
def test_every_job_gets_a_whole_runtime_and_memory(slurm_dry_run):
    jobs = re.findall(r"^(?:local)?rule (\w+):\n((?:    .*\n)+)", slurm_dry_run, flags=re.M)
    working = [(rule, body) for rule, body in jobs if "benchmark:" in body]
    assert len(working) > 150
    for rule, body in working:
        resources = re.search(r"resources: (.*)", body)[1]
        assert re.search(r"\bruntime=[1-9]\d*(,|$)", resources), (rule, resources)
        assert re.search(r"\bmem_mb=[1-9]\d*(,|$)", resources), (rule, resources)


@pytest.mark.slow  # a copy of the repository and Snakemake dry runs (module fixtures)
def test_set_resources_name_existing_rules(workflow_rules):
    listed = set(yaml.safe_load(PROFILE.read_text())["set-resources"])
    assert listed and listed <= workflow_rules, listed - workflow_rules


def test_the_workflow_profile_does_not_override_the_cluster_settings():
    # Snakemake applies profiles/default after --profile, key by key: a key set in both must
    # have one value, or the cluster profile's value is silently replaced
    cluster = yaml.safe_load(PROFILE.read_text())
    default = yaml.safe_load((REPO / "profiles" / "default" / "profile.yaml").read_text())
    shared = set(default) & set(cluster)
    clashes = {key: (default[key], cluster[key]) for key in shared if default[key] != cluster[key]}
    assert not clashes, f"profiles/default overrides profiles/slurm: {clashes}"
