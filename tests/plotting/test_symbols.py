"""Caption prose in the figures' symbols, with row ids untouched."""

from attnspec.plotting.symbols import with_symbols


def test_quantities_become_symbols():
    text = (
        "median gap (ell s_2^2 - x_+)/x_+ at ell = 8192, beta = 0.5, theta_max, "
        "(s_1(Y_lin)^2 - E lambda_max)/x_+, Sigma_f: (E_ell - x_+), k_ell = 10, sqrt(ell) A, "
        "nu_inf, gamma_K = 4, x_+ (1 +- 1 %), Tracy-Widom"
    )
    assert with_symbols(text) == (
        "median gap (ℓ s₂² - x₊)/x₊ at ℓ = 8192, β = 0.5, θ_max, "
        "(s₁(Y_lin)² - E λ_max)/x₊, Σ_f: (E_ℓ - x₊), k_ℓ = 10, √ℓ A, "
        "ν∞, γ_K = 4, x₊ (1 ± 1 %), Tracy–Widom"
    )


def test_row_ids_and_words_stay_as_they_are():
    text = "row B.1/beta=0.5, row B.3/Sigma_f, B.2/beta=1/log; cell, spell, betas, ellipse"
    assert with_symbols(text) == text
