"""Generated caption prose in the symbols the figures draw: ``ell`` as ℓ, ``beta`` as β,
``x_+`` as x₊, ``s_2^2`` as s₂² and so on, leaving claims-table row ids (``B.1/beta=0.5``) as
they are, since they name rows, not quantities."""

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
