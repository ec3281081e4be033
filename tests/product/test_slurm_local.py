"""The cluster path run for real: a one-node SLURM on this machine (tools/slurm_local.sh) and
CI-preset jobs of every resource class submitted to it through profiles/slurm (Snakemake's SLURM
executor plugin), as docs/cluster.md describes.

Covered, in copies of one local run of the same targets (the reference):

- the paper preset's largest kind of job (one paper B sticking draw, here at ell = 4096), a batched
  draw job, the claims job and a figure drawn from it each run as a SLURM job with the memory,
  runtime and CPUs its rule reserves (read back from sacct), and write what the local run wrote,
  byte for byte;
- the run lock and the memory preflight behave as in a local run;
- a job over its memory is killed by SLURM (OUT_OF_MEMORY) and its retry gets the larger
  reservation an attempt-scaled mem_mb declares;
- a job cancelled mid-run (scancel) leaves no half-written output, and the next run completes.

It installs Debian packages and starts system daemons, so it runs only in CI (CI=true, as
.ci/run is called) or when asked (ATTNSPEC_SLURM_TEST=1); skipped with the script's reason
where it cannot run (not root, no apt). From a clean machine, apt included: 5 min 20 s on a
shared 2-core machine, 3 min 42 s near idle; docs/cluster.md has the figures.
"""

import filecmp
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import REPO, run, tool, tracked_copy

pytestmark = pytest.mark.slow

SCRIPT = REPO / "tools" / "slurm_local.sh"
OPT_IN = "ATTNSPEC_SLURM_TEST"
LARGEST_ELL = 4096  # above BATCHED_UP_TO (2048): one job per draw, as at paper scale
PRESET = [
    "--config",
    f'paperB={{"sticking": {{"n_tokens": [64, 128, 256, {LARGEST_ELL}]}}}}',
    "--configfile",
    "config/ci.yaml",
]
DRAW = f"results/paperB/sticking/ell{LARGEST_ELL}-c1.0/draw0.npz"
DRAW_LOG = f"logs/results/paperB/sticking/ell{LARGEST_ELL}-c1.0/draw0.log"
# One target per resource class, by the rule that makes it, and the files its job writes.
TARGETS = {
    "paperB_sticking_draw": DRAW,
    "paperB_sticking_batch": "results/paperB/sticking/ell64-c1.0/draws3.npz",
    "claims_judge": "results/paperD/claims.csv",
    "paperD_D3_figure": "results/published/paperD/D3-sharing.sha256",
}
WRITTEN = {
    **{rule: [path] for rule, path in TARGETS.items() if rule != "paperD_D3_figure"},
    "paperD_D3_figure": [TARGETS["paperD_D3_figure"]]
    + [f"figures/paperD/D3-sharing.{ext}" for ext in ("png", "csv", "md")],
}
# The first status check 5 s after a submission rather than the plugin's 40 s (docs/cluster.md).
SLURM = ["--profile", "profiles/slurm", "--slurm-init-seconds-before-status-checks", "5"]


def command(*args: str) -> list[str]:
    """snakemake with targets and flags, then the preset (targets go before --configfile)."""
    return [tool("snakemake"), *args, *PRESET]


def interruptible(args: list[str], cwd: Path) -> subprocess.Popen:
    """A Snakemake command in the background that Ctrl-C (SIGINT) stops as it would a user's:
    SIGINT restored to its default in the child, since a shell that started these tests in the
    background (nohup ... &, a CI runner) passes it on ignored, and Python then never raises
    KeyboardInterrupt."""
    return subprocess.Popen(
        args,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def script(*args: str, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    return run([str(SCRIPT), *args], check=check, timeout=900, **kwargs)


@pytest.fixture(scope="module")
def cluster():
    """The local SLURM, started by the script (and stopped after the module if it started it)."""
    if os.environ.get(OPT_IN) != "1" and os.environ.get("CI") != "true":
        pytest.skip(
            f"runs in CI (CI=true) or with {OPT_IN}=1: it installs and starts a one-node SLURM "
            "on this machine (tools/slurm_local.sh: root and apt) and submits CI-preset jobs to it"
        )
    was_running = script("status", check=False).returncode == 0
    started = time.monotonic()
    result = script("start", check=False)
    if result.returncode == 2:  # the script's one-line refusal: not root, no apt, a real SLURM
        pytest.skip(result.stderr.strip())
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    print(f"\nslurm_local.sh start: {time.monotonic() - started:.1f} s")
    yield
    if not was_running:
        stopped = script("stop", check=False)
        assert stopped.returncode == 0, stopped.stderr
        assert script("status", check=False).stdout.count(": stopped") == 5
        # Without slurm.conf, SLURM clients (and so every Snakemake command) fail at once.
        assert not Path("/etc/slurm/slurm.conf").exists()


@pytest.fixture(scope="module")
def local_run(cluster, tmp_path_factory) -> Path:
    """The reference: the targets run locally on 2 cores in a fresh copy."""
    workdir = tracked_copy(tmp_path_factory.mktemp("local"))
    started = time.monotonic()
    run(command(*TARGETS.values(), "--cores", "2"), cwd=workdir)
    print(f"\nlocal run of the targets: {time.monotonic() - started:.1f} s")
    return workdir


def copy_of(local_run: Path, destination: Path) -> Path:
    shutil.copytree(local_run, destination, symlinks=True)
    return destination


def run_id(output: str) -> str:
    return re.search(r"SLURM run ID: (\S+)", output).group(1)


def sacct(*args: str) -> list[dict]:
    """sacct rows (parsable) as dicts."""
    fields = ["JobID", "Comment", "State", "ReqMem", "Timelimit", "ReqCPUS", "Account"]
    fields += ["Partition", "MaxRSS", "Elapsed"]
    listing = run(["sacct", "-n", "-P", "-o", ",".join(fields), *args]).stdout
    return [
        dict(zip(fields, line.split("|"), strict=True)) for line in listing.splitlines() if line
    ]


def rule_of(comment: str) -> str:
    """The rule in the plugin's job comment: rule_<rule>[_wildcards_<values>]."""
    return comment.removeprefix("rule_").split("_wildcards_")[0]


def minutes(limit: str) -> int:
    """A sacct time limit ([D-]HH:MM:SS) in minutes."""
    days, _, clock = limit.rpartition("-")
    hours, mins, _ = map(int, clock.split(":"))
    return int(days or 0) * 1440 + hours * 60 + mins


def megabytes(req_mem: str) -> int:
    """sacct's ReqMem (e.g. 618M, 1000M, 2G) in MB."""
    number, unit = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT])n?", req_mem).groups()
    return round(float(number) * {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024**2}[unit])


def planned_resources(dry_run: str) -> dict[str, dict[str, int]]:
    """mem_mb and runtime of each rule's job in a dry run (one job per rule here)."""
    planned = {}
    for block in re.split(r"\n(?=(?:local)?rule \w+:)", dry_run):
        head = re.match(r"(?:local)?rule (\w+):", block)
        resources = re.search(r"resources: (.*)", block)
        if head and resources:
            values = dict(re.findall(r"(\w+)=(\d+)", resources.group(1)))
            planned[head.group(1)] = {k: int(values[k]) for k in ("mem_mb", "runtime")}
    return planned


def rule_threads(rule: str) -> int:
    """The threads a rule declares (1 if none), from its rule file."""
    for path in (REPO / "workflow" / "rules").glob("*.smk"):
        block = re.search(rf"^rule {rule}:\n(.*?)(?=^\S|\Z)", path.read_text(), re.M | re.S)
        if block:
            declared = re.search(r"^\s+threads: (\d+)", block.group(1), re.M)
            return int(declared.group(1)) if declared else 1
    raise AssertionError(f"rule {rule} not found")


def wait_for(predicate, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out after {seconds} s waiting for {what}"
        time.sleep(0.25)


@pytest.fixture(scope="module")
def slurm_run(local_run, tmp_path_factory):
    """The four jobs again through SLURM (--forcerun) in a copy of the local run; while it runs,
    a second command in the same folder. Returns what the tests read."""
    workdir = copy_of(local_run, tmp_path_factory.mktemp("slurm") / "run")
    forced = ["--forcerun", *TARGETS]
    dry_run = run(command(*TARGETS.values(), *forced, *SLURM, "-n"), cwd=workdir).stdout
    before = {p: (workdir / p).stat().st_mtime_ns for paths in WRITTEN.values() for p in paths}
    started = time.monotonic()
    main = interruptible(command(*TARGETS.values(), *forced, *SLURM), workdir)
    try:
        # While the run holds the folder (its first job is queued), a second command is refused.
        wait_for(
            lambda: (workdir / ".snakemake" / "slurm_logs").exists(), 120, "the first submission"
        )
        second = run(command(*TARGETS.values(), "-n"), cwd=workdir, check=False)
        output, _ = main.communicate(timeout=1200)
    finally:
        if main.poll() is None:
            main.send_signal(signal.SIGINT)
            main.wait(timeout=300)
    wall = time.monotonic() - started
    assert main.returncode == 0, output
    print(f"\nSLURM run of {len(TARGETS)} jobs: {wall:.1f} s")
    jobs = sacct("-X", "--name", run_id(output))
    steps = sacct("-j", ",".join(job["JobID"] for job in jobs))
    for row in steps:
        print(" | ".join(row[k] for k in ("JobID", "Comment", "State", "ReqMem", "MaxRSS")), end="")
        print(f" | {row['Elapsed']} of {row['Timelimit']}")
    return {
        "workdir": workdir,
        "output": output,
        "dry_run": dry_run,
        "before": before,
        "second": second,
        "pid": main.pid,
        "jobs": jobs,
        "after": run(command(*TARGETS.values(), "-n"), cwd=workdir, check=False),
    }


def test_each_job_gets_what_its_rule_reserves(slurm_run):
    planned = planned_resources(slurm_run["dry_run"])
    jobs = {rule_of(job["Comment"]): job for job in slurm_run["jobs"]}
    assert set(jobs) == set(TARGETS), jobs
    for rule, job in jobs.items():
        assert job["State"] == "COMPLETED", job
        assert megabytes(job["ReqMem"]) == planned[rule]["mem_mb"], (rule, job)
        assert minutes(job["Timelimit"]) == planned[rule]["runtime"], (rule, job)
        assert int(job["ReqCPUS"]) == rule_threads(rule), (rule, job)
        # The script's account and partition (root's default account, the default partition).
        assert (job["Account"], job["Partition"]) == ("attnspec", "main"), job
    # The largest job's runtime is the profile's, not the default's.
    assert planned["paperB_sticking_draw"]["runtime"] == 185


def test_the_outputs_are_the_local_runs_byte_for_byte(slurm_run, local_run):
    workdir = slurm_run["workdir"]
    for rule, paths in WRITTEN.items():
        for path in paths:
            assert (workdir / path).stat().st_mtime_ns != slurm_run["before"][path], (rule, path)
            assert filecmp.cmp(local_run / path, workdir / path, shallow=False), (rule, path)


def test_the_run_lock_holds_the_folder_as_in_a_local_run(slurm_run):
    """A second command is refused while the cluster run holds the folder, naming its process
    (the jobs, run under the cluster executor, do not take the lock); afterwards it is free."""
    second, after = slurm_run["second"], slurm_run["after"]
    assert second.returncode != 0
    refused = second.stdout + second.stderr
    assert re.search(
        rf"another Snakemake command is running in this folder \(pid {slurm_run['pid']}, "
        r"started .*no --unlock needed\)",
        refused,
    ), refused
    assert after.returncode == 0, after.stdout + after.stderr
    assert "Nothing to be done" in after.stdout + after.stderr


def test_the_memory_preflight_refuses_before_any_submission(local_run, tmp_path):
    """A size whose job needs more than the node may give is refused before any job, with the
    local run's message, and nothing reaches SLURM."""
    workdir = copy_of(local_run, tmp_path / "refused")
    too_big = ["--config", 'paperB={"sticking": {"n_tokens": [64, 128, 256, 16384]}}']
    too_big += ["job_memory_limit_mb=1000", "--configfile", "config/ci.yaml"]
    jobs_before = len(sacct("-X", "-S", "now-1hours"))
    messages = []
    for executor in (SLURM, ["--cores", "1"]):
        result = run([tool("snakemake"), DRAW, *executor, *too_big], cwd=workdir, check=False)
        assert result.returncode != 0
        refusal = re.search(
            r"^jobs that could not run \(refused before any job\).*$", result.stderr, re.M
        )
        assert refusal, result.stderr
        messages.append(refusal.group(0))
    assert messages[0] == messages[1]
    assert "paperB.sticking.n_tokens: 16384 needs a job of" in messages[0]
    assert len(sacct("-X", "-S", "now-1hours")) == jobs_before


def test_a_job_over_its_memory_is_killed_and_retried_with_the_larger_reservation(
    slurm_run, local_run, tmp_path
):
    """The draw's first attempt reserves half its rule's memory: SLURM kills it (its step
    OUT_OF_MEMORY), and the retry (retries: 1) gets twice that and twice the time. The rules'
    mem_mb are attempt x their first reservation (reserved_mem_mb); the too-small first
    reservation is given here on the command line in that same form."""
    workdir = copy_of(local_run, tmp_path / "oom")
    full = planned_resources(slurm_run["dry_run"])["paperB_sticking_draw"]["mem_mb"]
    scaled = [
        "--set-resources",
        f"paperB_sticking_draw:mem_mb={full // 2} * attempt",
        "paperB_sticking_draw:runtime=185 * attempt",
    ]
    result = run(command(DRAW, "--forcerun", "paperB_sticking_draw", *SLURM, *scaled), cwd=workdir)
    jobs = sacct("-X", "--name", run_id(result.stdout + result.stderr))
    assert [(megabytes(j["ReqMem"]), minutes(j["Timelimit"])) for j in jobs] == [
        (full // 2, 185),
        (2 * (full // 2), 370),
    ]
    assert [j["State"] for j in jobs] == ["FAILED", "COMPLETED"]
    first_steps = {row["JobID"]: row["State"] for row in sacct("-j", jobs[0]["JobID"])}
    assert "OUT_OF_MEMORY" in first_steps.values(), first_steps
    assert filecmp.cmp(local_run / DRAW, workdir / DRAW, shallow=False)


def partial_files(workdir: Path) -> list[Path]:
    """Hidden files beside the draw (attnspec.workflow.io.atomic_path's temporary files)."""
    return sorted((workdir / DRAW).parent.glob(".*"))


def test_a_cancelled_job_leaves_no_half_written_output_and_the_rerun_completes(local_run, tmp_path):
    """scancel while the draw's script computes. The output is then missing or the complete
    file (each output is written under a temporary name and renamed when complete); the pinned
    plugin reads sacct's "CANCELLED by <uid>" as still running, so the run waits until
    interrupted (Ctrl-C, as docs/cluster.md says); the same command then completes."""
    workdir = copy_of(local_run, tmp_path / "cancel")
    (workdir / DRAW_LOG).unlink()
    runs = command(DRAW, "--forcerun", "paperB_sticking_draw", "--retries", "0", *SLURM)
    cancelled = interruptible(runs, workdir)
    try:
        log = workdir / DRAW_LOG
        wait_for(lambda: log.exists() and "draw 0 (1 of" in log.read_text(), 300, "the script")
        listed = run(["squeue", "-h", "-o", "%A|%k"]).stdout.splitlines()
        job = [line.split("|")[0] for line in listed if "paperB_sticking_draw" in line]
        assert len(job) == 1, listed
        run(["scancel", job[0]])
        wait_for(lambda: sacct("-X", "-j", job[0])[0]["State"].startswith("CANCELLED"), 60, "sacct")
        # The pinned plugin (2.8.0) does not notice: the run keeps waiting for the job.
        with pytest.raises(subprocess.TimeoutExpired):
            cancelled.wait(timeout=20)
    finally:
        if cancelled.poll() is None:
            cancelled.send_signal(signal.SIGINT)
        output, _ = cancelled.communicate(timeout=400)
    assert cancelled.returncode != 0, output
    if (workdir / DRAW).exists():  # the script ended within KillWait, before SIGKILL
        print("\ncancelled draw: its script finished within KillWait (complete output)")
        assert filecmp.cmp(local_run / DRAW, workdir / DRAW, shallow=False)
    else:
        print("\ncancelled draw: killed before its output was written")
    rerun = run(command(DRAW, *SLURM), cwd=workdir)
    assert "Nothing to be done" in rerun.stdout + rerun.stderr or "1 of 1 steps" in rerun.stderr
    assert filecmp.cmp(local_run / DRAW, workdir / DRAW, shallow=False)
    assert partial_files(workdir) == []


def test_starting_twice_keeps_the_running_daemons(cluster):
    before = script("status").stdout
    script("start")
    assert script("status").stdout == before


def refusal(env=None, as_nobody=False) -> subprocess.CompletedProcess:
    """``start`` with the script on standard input (readable whatever the checkout's
    permissions), in /, optionally as the user nobody."""
    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if as_nobody else []
    with open(SCRIPT) as source:
        return subprocess.run(
            [*prefix, "/bin/bash", "-s", "start"],
            stdin=source,
            cwd="/",
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )


def test_the_script_refuses_where_it_cannot_run(tmp_path):
    """One line and exit status 2 (the module's tests then skip): not root; no apt-get."""
    result = refusal(as_nobody=os.geteuid() == 0)
    assert (result.returncode, result.stderr) == (
        2,
        "tools/slurm_local.sh: cannot run here: it must run as root "
        "(it installs packages and starts system daemons).\n",
    )
    if os.geteuid() == 0:  # as root, on a PATH without apt-get
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        for name in ("id", "grep"):
            (bin_dir / name).symlink_to(shutil.which(name))
        result = refusal(env={"PATH": str(bin_dir)})
        assert (result.returncode, result.stderr) == (
            2,
            "tools/slurm_local.sh: cannot run here: "
            "it needs apt-get and dpkg (Debian or Ubuntu).\n",
        )
