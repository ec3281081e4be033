"""What each intermediate ``.npz`` under ``results/`` holds, checked whenever a script reads one.

One table, :data:`KINDS`: per kind of file (named by the rule that writes it), the path pattern
below a results root (``results/``, ``results/paper-scale/``, either's ``replicate<r>/``), and
per member (a name pattern) its shape, dtype kinds and whether its values must be finite. A
shape is a tuple of dimensions: a number, ``"*"`` (any length), or a symbol that must take one
value throughout the file (a wildcard of the path such as ``draws`` is a symbol bound to its value
there; ``per=`` gives a member's own symbols one value per value of a wildcard of its name
instead, e.g. per panel).
:func:`check_arrays` refuses, naming the file and the member: a member no pattern allows, a
declared member missing, a wrong number of dimensions or a length other than its symbol's, a
dtype of another kind, and NaN or infinity where values must be finite. Pickled members (dtype
object) are refused for every ``.npz`` by :func:`attnspec.workflow.io.load_npz` before loading.
Nothing here reads files.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath

import numpy as np


class ResultError(ValueError):
    """An intermediate file does not hold what its kind declares; the message says what."""


@dataclass(frozen=True)
class Member:
    """One member pattern of a kind (at least one member must match it): its shape (dimensions,
    or None for any), dtype kinds (numpy's one-letter codes: f float, i and u integer, b bool,
    U text), whether its values must be finite, and the wildcard of its name that scopes its
    symbols (None: one value per file)."""

    shape: tuple | None
    kinds: str = "f"
    finite: bool = False
    per: str | None = None


def finite(*dims, per=None) -> Member:
    """Floats that must be finite: raw simulation values (NaN or infinity there is a broken
    file)."""
    return Member(tuple(dims), "f", True, per=per)


def floats(*dims, per=None) -> Member:
    """Floats that may be NaN: derived statistics (NaN may mean "not defined")."""
    return Member(tuple(dims), "f", False, per=per)


def ints(*dims, per=None) -> Member:
    """Integers (counts, sizes, indices)."""
    return Member(tuple(dims), "iu", per=per)


def text(*dims, per=None) -> Member:
    """Unicode text (names)."""
    return Member(tuple(dims), "U", per=per)


@dataclass(frozen=True)
class Kind:
    """The files one rule writes: ``pattern`` below a results root and their members."""

    rule: str
    pattern: str
    members: Mapping[str, Member]


_BATCH = {"batch_draws": ints()}
"""The draw count of a stacked record (attnspec.papers.draw_batches)."""

_STICKING = {
    "n_tokens": ints(),
    "ratio": floats(),
    "d_qk": ints(),
    "draw": ints(),
    "betas": floats("B"),
    "attention": finite("B", "KA"),
    "linear": finite("B", "KL"),
    "theta_max": finite("B"),
    "ipr_left": finite("B", "KI"),
    "ipr_right": finite("B", "KI"),
}
_CONDITIONAL = {
    "n_tokens": ints(),
    "d_qk": ints(),
    "draw": ints(),
    "eigenvalues_sigma_f": finite("n_tokens"),
    "edge_sigma_f": finite(),
    "eigenvalues_sigma_g": finite("n_tokens"),
    "edge_sigma_g": finite(),
}
_LAYERS = {
    "{profile}/{mode}/frobenius_squared": finite("D", per="profile"),
    "{profile}/{mode}/top": finite("D", "K", per="profile"),
    "{profile}/{mode}/spike_values": finite("D", "P", per="profile"),
}
_DIAGNOSTICS = {
    "normalised_singular_values": floats("P", "L", "H", "W"),
    "energy": floats("P", "L", "H", "W"),
    "centred_energy": floats("P", "L", "H", "W"),
    "rank": ints("P", "L", "H"),
    "angles": floats("P", "L", "H", 2, 2, "tokens"),
    "angle_distance": floats("P", "L", "H", 2, 2),
    "stable_rank": floats("P", "L", "H", 2),
}
_REFERENCE_DIAGNOSTICS = {
    name: Member(("draws", *member.shape[1:]), member.kinds, member.finite)
    for name, member in _DIAGNOSTICS.items()
}
"""A reference or control: the draws in place of the passages, one layer, one head."""
_EVIDENCE = {"*::*": Member(None, "fiubU")}
"""Registry rows' samples (attnspec.workflow.io.save_evidence): checked by the claims engine."""
EVIDENCE_RULES = {
    "A-T2-stepwise": "paperA_AT2_evidence",
    "A3-bulk-laws": "paperA_A3_evidence",
    "A5-linearisation": "paperA_A5_evidence",
    "A6-perron": "paperA_A6_evidence",
    "sticking": "paperB_sticking_evidence",
    "conditional": "paperB_conditional_evidence",
    "edge-formulas": "paperB_edge_formulas_evidence",
    "C2-bulk": "paperC_C2_evidence",
    "C-T1-stable-rank": "paperC_CT1_evidence",
    "C-T2-pretrained": "paperC_CT2_evidence",
    "public-models": "paperD_public_models_evidence",
    "sharing": "paperD_sharing_evidence",
}

KINDS = (
    Kind(
        "paperA_spectra",
        "paperA/spectra/ell{n_tokens}-dqk{d_qk}-beta{beta}-{sampler}/{models}-draws{draws}.npz",
        {"{model}": finite("draws", "m")},
    ),
    Kind(
        "paperA_stepwise_pool",
        "paperA/stepwise/summary.npz",
        {
            "models": text("M"),
            "edges": floats("E"),
            "ranks": ints("R"),
            "theory_x": floats("T"),
            "theory_density": floats("T"),
            "theory_sorted": floats("R"),
            "x_plus": floats(),
            "m1_theory": floats(),
            "m2_theory": floats(),
            "density/{model}": floats("bins"),
            "sorted/{model}": floats("R"),
            "ks_to_attention": floats("M"),
            "ks_to_nu_inf": floats("M"),
            "w1_to_nu_inf": floats("M"),
            "m1": floats("M"),
            "m2": floats("M"),
        },
    ),
    Kind(
        "paperA_A2_spectra",
        "paperA/full_spectrum/ell{n_tokens}-dqk{d_qk}-beta{beta}-draws{draws}.npz",
        {
            "{draw}/squared_singular_values": finite("*"),
            "{draw}/top_values": finite("K", per="draw"),
            "{draw}/ipr_left": finite("K", per="draw"),
            "{draw}/ipr_right": finite("K", per="draw"),
            "{draw}/largest_entry": finite(),
        },
    ),
    Kind(
        "paperA_A3_summary",
        "paperA/bulk_laws/summary.npz",
        {
            **{
                f"{{panel}}/{name}": floats(per="panel")
                for name in ("beta", "ratio", "x_plus", "mp_edge", "theta1", "largest")
                + ("edge_mass_theory", "ks_nu_inf_mp", "m1_attention")
            },
            "{panel}/n_beyond": ints(per="panel"),
            **{
                f"{{panel}}/{name}": floats(dims, per="panel")
                for name, dims in (
                    ("theory_x", "T"),
                    ("density_nu_inf", "T"),
                    ("density_mp", "T"),
                    ("survival_theory_x", "S"),
                    ("survival_nu_inf", "S"),
                    ("survival_mp", "S"),
                    ("edges", "E"),
                )
            },
            **{
                f"{{panel}}/{name}_{model}": floats(dims, per="panel")
                for model, survival in (("attention", "SA"), ("linear", "SL"))
                for name, dims in (
                    ("density", "bins"),
                    ("survival_x", survival),
                    ("survival", survival),
                    ("edge_mass", "draws"),
                )
            },
            "{panel}/ks_{model}_{law}": floats("draws", per="panel"),
            "{panel}/pooled_{distance}_{model}_{law}": floats(per="panel"),
        },
    ),
    Kind(
        "paperA_A5_distances",
        "paperA/linearisation/distances.npz",
        {
            "model": text("rows"),
            "n_tokens": ints("rows"),
            "beta": floats("rows"),
            "draw": ints("rows"),
            "kolmogorov": floats("rows"),
            "wasserstein1_relative": floats("rows"),
            "kolmogorov/{alternative}": floats("rows"),
        },
    ),
    Kind(
        "paperA_A6_simulate",
        "paperA/perron/beta{beta}-draws{draws}.npz",
        {
            "n_tokens": ints("sizes"),
            "s1": finite("sizes", "draws"),
            "frobenius_squared": finite("sizes", "draws"),
        },
    ),
    Kind(
        "paperA_A7_summary",
        "paperA/ratios/summary.npz",
        {
            "{panel}/sampler": text(per="panel"),
            **{f"{{panel}}/{name}": ints(per="panel") for name in ("d_model", "d_qk", "n_tokens")},
            "{panel}/n_beyond": ints(per="panel"),
            **{
                f"{{panel}}/{name}": floats(per="panel")
                for name in ("ratio", "beta", "x_plus", "theta1", "m1", "largest", "ks", "w1")
                + ("ks_swapped",)
            },
            "{panel}/support": floats("*", 2, per="panel"),
            "{panel}/edges": floats("E", per="panel"),
            "{panel}/density": floats("bins", per="panel"),
            "{panel}/theory_x": floats("T", per="panel"),
            "{panel}/density_nu_inf": floats("T", per="panel"),
            "{panel}/density_swapped": floats("T", per="panel"),
            "{panel}/ks_per_draw": floats("draws", per="panel"),
        },
    ),
    Kind(
        "paperA_AT2_pairs",
        "paperA/equivalence/pairs.npz",
        {
            "n_tokens": ints("sizes"),
            "d_al": floats("sizes", "pairs"),
            "d_ll": floats("sizes", "pairs"),
            "d_al/{alternative}": floats("sizes", "pairs"),
        },
    ),
    Kind(
        "paperB_sticking_batch",
        "paperB/sticking/ell{n_tokens}-c{ratio}/draws{draws}.npz",
        {
            **{
                name: Member(("draws", *member.shape), member.kinds, member.finite)
                for name, member in _STICKING.items()
            },
            **_BATCH,
        },
    ),
    Kind(
        "paperB_conditional_batch",
        "paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draws{draws}.npz",
        {
            **{
                name: Member(("draws", *member.shape), member.kinds, member.finite)
                for name, member in _CONDITIONAL.items()
            },
            **_BATCH,
        },
    ),
    Kind(
        "paperB_sticking_draw",
        "paperB/sticking/ell{n_tokens}-c{ratio}/draw{draw}.npz",
        _STICKING,
    ),
    Kind(
        "paperB_conditional_draw",
        "paperB/conditional/ell{n_tokens}-dqk{d_qk}-beta{beta}/draw{draw}.npz",
        _CONDITIONAL,
    ),
    Kind(
        "paperC_C1_spectra",
        "paperC/canonical/C1-spectra.npz",
        {
            "isotropic_profile": text(),
            "{profile}/scores": finite("n"),
            "{profile}/{mode}/softmax_difference": finite(),
            "{profile}/{mode}/attention": finite("n"),
        },
    ),
    Kind(
        "paperC_C2_counts",
        "paperC/canonical/C2-bulk-counts.npz",
        {"grid": floats("grid"), "n{n}/{profile}/{mode}/counts": ints("*", "grid")},
    ),
    Kind(
        "paperC_C3_stable_rank",
        "paperC/canonical/stable-rank/n{n_tokens}.npz",
        {
            "cesaro/norm": finite("*"),
            "cesaro/frobenius_squared": finite(),
            **_LAYERS,
        },
    ),
    Kind("paperC_C3_isotropic", "paperC/canonical/isotropic/n{n_tokens}.npz", _LAYERS),
    Kind(
        "paperC_C3_gaussian",
        "paperC/canonical/gaussian-model/ell{n_tokens}.npz",
        {"{mode}/frobenius_squared": finite("D"), "{mode}/norm_squared": finite("D")},
    ),
    Kind(
        "paperC_C3_gaussian_reference",
        "paperC/canonical/gaussian-model-reference.npz",
        {
            "n_tokens": ints("sizes"),
            "beta": floats(),
            "causal/slope": floats(),
            "{mode}/frobenius_squared": floats("sizes"),
            "{mode}/norm_squared": floats("sizes"),
            "{mode}/stable_rank": floats("sizes"),
        },
    ),
    Kind(
        "paperC_C4_survival",
        "paperC/canonical/survival/n{n_tokens}.npz",
        {
            "kappas": floats("kappas"),
            "{mode}/spike_values": finite("kappas", "D", "P"),
            "{mode}/spike_diagonal": finite("kappas", "D", "P"),
            "{mode}/top": finite("kappas", "D", "K"),
        },
    ),
    Kind(
        "paperC_pretrained_queries_keys",
        "paperC/pretrained/queries-keys-n{tokens}-p{passages}.npz",
        {
            "token_ids": ints("passages", "tokens"),
            "queries": finite("passages", "L", "H", "tokens", "W"),
            "keys": finite("passages", "L", "H", "tokens", "W"),
        },
    ),
    Kind(
        "paperC_C7_stable_ranks",
        "paperC/pretrained/stable-ranks-n{tokens}-max{passages}.npz",
        {
            "token_ids": ints("P", "tokens"),
            "stable_rank": finite("P", "L", "H", 2),
        },
    ),
    Kind(
        "paperC_pretrained_model_diagnostics",
        "paperC/pretrained/minilm-n{tokens}-p{passages}.npz",
        {
            name: Member(("passages", *member.shape[1:]), member.kinds, member.finite)
            for name, member in _DIAGNOSTICS.items()
        },
    ),
    Kind(
        "paperC_pretrained_isotropic_reference",
        "paperC/pretrained/isotropic-n{tokens}-d{width}-r{draws}.npz",
        _REFERENCE_DIAGNOSTICS,
    ),
    Kind(
        "paperC_pretrained_control",
        "paperC/pretrained/control-{control}-n{tokens}-d{width}-r{draws}.npz",
        _REFERENCE_DIAGNOSTICS,
    ),
    Kind(
        "paperC_pretrained_tests",
        "paperC/pretrained/eigen-angle-tests.npz",
        {
            "reference_count": ints(),
            "model_count": ints(),
            "contaminations": floats("C"),
            "power/ks": floats("C"),
            "power/mw": floats("C"),
            "reference_q95": floats(),
            "share_above_q95": floats("C"),
            "median/{set}": floats(),
            "{set}/{statistic}": floats(),
        },
    ),
    Kind(
        "paperD_public_model",
        "paperD/public-models/{model}/draws{draws}.npz",
        {
            "softmax": finite("draws", "n"),
            "gaussian": finite("draws", "n"),
            "floor": finite("draws", "n"),
            "mutant/{name}": finite("draws", "n"),
            **_BATCH,
        },
    ),
    Kind(
        "paperD_heads",
        "paperD/heads/h{heads}/draws{draws}.npz",
        {
            "{stage}/softmax": finite("draws", "n"),
            "{stage}/gaussian": finite("draws", "n"),
            **_BATCH,
        },
    ),
    Kind(
        "paperD_sharing",
        "paperD/sharing/{scheme}/n{n_tokens}/draws{draws}.npz",
        {"softmax": finite("draws", "n_tokens"), "gaussian": finite("draws", "n_tokens"), **_BATCH},
    ),
    Kind(
        "paperD_figure_d1",
        "paperD/figure-d1/{panel}/draws{draws}.npz",
        {
            "{condition}/softmax": finite("draws", "n"),
            "{condition}/gaussian": finite("draws", "n"),
            **_BATCH,
        },
    ),
    *(
        Kind(rule, f"{rule.split('_')[0]}/evidence/{source}.npz", _EVIDENCE)
        for source, rule in EVIDENCE_RULES.items()
    ),
)
"""Every kind of intermediate ``.npz`` the workflow writes (tests/workflow/test_npzschema.py
checks that each npz output of a rule has one); a path takes the first kind it matches (paper
B's batches, ``draws<n>.npz``, before its single draws, ``draw<i>.npz``)."""


def _regex(pattern: str, wildcard: str) -> re.Pattern:
    """``{name}`` -> a named group matching ``wildcard``; ``*`` -> anything; the rest literal."""
    parts = re.split(r"(\{\w+\}|\*)", pattern)
    out = []
    for part in parts:
        if part == "*":
            out.append(".+")
        elif part.startswith("{") and part.endswith("}"):
            out.append(f"(?P<{part[1:-1]}>{wildcard})")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out))


_ROOT = r"(?:^|/)results(?:/paper-scale)?(?:/replicate[1-9]\d*)?/"
_PATHS = [
    (kind, re.compile(_ROOT + _regex(kind.pattern, r"[^/]+").pattern + "$")) for kind in KINDS
]


def kind_of(path) -> tuple[Kind, dict[str, str]] | None:
    """The kind of the file at ``path`` and its path wildcards, or None (not an intermediate)."""
    text = PurePath(path).as_posix()
    for kind, regex in _PATHS:
        found = regex.search(text)
        if found:
            return kind, found.groupdict()
    return None


def _refuse(path, member: str, problem: str, kind: Kind | None) -> ResultError:
    made_by = f" (a result of rule {kind.rule})" if kind is not None else ""
    return ResultError(
        f"{path}: member {member!r} {problem}{made_by}; the file is refused: remove it and run "
        "the command again, and the job that makes it recomputes it"
    )


def pickled(path, member: str) -> ResultError:
    """The refusal of a member holding pickled Python objects (never written by the workflow;
    numpy reads it only by unpickling, which can run code)."""
    found = kind_of(path)
    return _refuse(
        path,
        member,
        "holds pickled Python objects (dtype object); allowed: numeric and text arrays",
        None if found is None else found[0],
    )


def _dims(value) -> str:
    return "(" + ", ".join(str(d) for d in value) + (",)" if len(value) == 1 else ")")


_KIND_NAMES = {"f": "floats", "i": "integers", "u": "integers", "b": "booleans", "U": "text"}


def _kinds(kinds: str) -> str:
    return " or ".join(dict.fromkeys(_KIND_NAMES[k] for k in kinds))


def check_arrays(path, arrays: Mapping[str, np.ndarray]) -> None:
    """ResultError naming ``path`` and the member unless ``arrays`` (every member of the file at
    ``path``) hold what the file's kind declares; files of no kind pass."""
    found = kind_of(path)
    if found is None:
        return
    kind, wildcards = found
    bound: dict = {}  # (symbol, scope) -> (length, where it was bound)
    for key, value in wildcards.items():
        if value.isdigit():
            bound[(key, ())] = (int(value), "the file's name")
    patterns = [(name, _regex(name, r"[^/]+"), member) for name, member in kind.members.items()]
    matched = set()
    for name, array in arrays.items():
        spec = next(((p, r, m) for p, r, m in patterns if r.fullmatch(name)), None)
        if spec is None:
            allowed = ", ".join(repr(p) for p, _, _ in patterns)
            raise _refuse(path, name, f"is not one this file holds (allowed: {allowed})", kind)
        pattern, regex, member = spec
        matched.add(pattern)
        if array.dtype.kind not in member.kinds:
            allowed = _kinds(member.kinds)
            raise _refuse(path, name, f"has dtype {array.dtype}; allowed: {allowed}", kind)
        if member.finite and array.dtype.kind == "f" and not np.all(np.isfinite(array)):
            raise _refuse(path, name, "holds NaN or infinity; allowed: finite numbers only", kind)
        if member.shape is not None:
            scope = ()
            if member.per is not None:
                scope = (member.per, regex.fullmatch(name)[member.per])
            _check_shape(path, name, array.shape, member.shape, scope, bound, kind)
    missing = [p for p, _, _ in patterns if p not in matched]
    if missing:
        raise _refuse(path, missing[0], "is missing", kind)


def _check_shape(path, name, shape, declared, scope, bound, kind) -> None:
    if len(shape) != len(declared):
        raise _refuse(path, name, f"has shape {_dims(shape)}; declared {_dims(declared)}", kind)
    for length, dim in zip(shape, declared, strict=True):
        if dim == "*":
            continue
        if isinstance(dim, int):
            expected, source = dim, "the declaration"
        else:
            key = (dim, ()) if (dim, ()) in bound else (dim, scope)
            expected, source = bound.setdefault(key, (length, f"member {name!r}"))
        if length != expected:
            raise _refuse(
                path,
                name,
                f"has shape {_dims(shape)}; declared {_dims(declared)}, and {dim} is {expected} "
                f"in {source}",
                kind,
            )
