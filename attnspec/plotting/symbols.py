"""Generated caption prose in the symbols the figures draw: ``ell`` as ℓ, ``beta`` as β,
``x_+`` as x₊, ``s_2^2`` as s₂² and so on, leaving claims-table row ids (``B.1/beta=0.5``) as
they are, since they name rows, not quantities; :func:`row_label` writes a row id as a figure
label."""

import re

_NOT_IN_A_WORD_OR_ID = r"(?<![\w/.=])"
"""A name starts a symbol only where it is not inside a word or a row id (after / . or =)."""
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

_REPLACEMENTS = (
    (r"sqrt\(ell\)", "√ℓ"),
    (r"\bs_(\d)\^2", lambda m: "s" + m[1].translate(_SUBSCRIPTS) + "²"),
    (r"\bs_(\d)\(([^()]*)\)\^2", lambda m: "s" + m[1].translate(_SUBSCRIPTS) + f"({m[2]})²"),
    (r"\bx_\+", "x₊"),
    (r"\b([EkR])_ell\b", r"\1_ℓ"),
    (_NOT_IN_A_WORD_OR_ID + r"ell\b", "ℓ"),
    (_NOT_IN_A_WORD_OR_ID + r"beta\b", "β"),
    (_NOT_IN_A_WORD_OR_ID + r"theta_", "θ_"),
    (_NOT_IN_A_WORD_OR_ID + r"lambda_", "λ_"),
    (_NOT_IN_A_WORD_OR_ID + r"gamma_", "γ_"),
    (_NOT_IN_A_WORD_OR_ID + r"Sigma_", "Σ_"),
    (_NOT_IN_A_WORD_OR_ID + r"nu_inf\b", "ν∞"),
    (r"\+-", "±"),
    (r"Tracy-Widom", "Tracy–Widom"),
)


def with_symbols(text: str) -> str:
    """``text`` with its ASCII maths names replaced by the symbols of the figures."""
    for pattern, replacement in _REPLACEMENTS:
        text = re.sub(pattern, replacement, text)
    return text


ROW_LABEL_SYMBOLS = (
    ("beta=", "\u03b2="),
    ("Sigma_", "\u03a3_"),
    ("/square_root", "/\u221a\u2113"),
    ("/cube_root", "/\u221b\u2113"),
    ("/log", "/log \u2113"),
)
"""A row id's parameter names as the figures write them (its label only; the id is unchanged)."""


def row_label(row_id: str) -> str:
    """The label of a row on the forest's y axis: its id with beta, Sigma and the k_ell
    schedules written as symbols (B.2/beta=1/cube_root as B.2/\u03b2=1/\u221b\u2113)."""
    for name, symbol in ROW_LABEL_SYMBOLS:
        row_id = row_id.replace(name, symbol)
    return row_id
