"""Dimensions and K/V sharing of a multi-head self-attention layer (paper D, section 2).

h query heads of width d_K, value width d_V per head, output width d_O, n tokens, input width
d >= n. K/V sharing: h_KV distinct key (and value) projections, query head r using group
r // (h / h_KV) (h_KV = h: independent heads; 1 < h_KV < h: grouped-query; h_KV = 1:
multi-query), and optionally W_r^V = W_r^K within each head (``tied``, needs d_V = d_K).
Proportional ratios (2.2)-(2.3): gamma_K = h d_K / n, gamma_V = h d_V / n, gamma_O = d_O / n.

``d_v=None`` means no value projection (V_r = sqrt(n / h) I_n, so the layer's squared singular
values are those of sqrt(n / h) A_perp, the attention law (C.10)); ``d_out=None`` means no output
projection (W^O = I, the value outputs [A_1 V_1, ..., A_h V_h] of proposition C.5).
"""

from dataclasses import dataclass

from attnspec.validation import check_count


@dataclass(frozen=True)
class MultiHeadShape:
    """Shape of one multi-head layer: token count, widths, heads and K/V sharing (paper D).

    Parameters
    ----------
    n_tokens : int
        Context length n >= 1.
    d_model : int
        Input width d >= n (X X^T / d = I_n needs n <= d).
    heads : int
        Query heads h >= 1.
    d_k : int
        Query/key width per head d_K >= 1.
    d_v : int or None
        Value width per head d_V >= 1 (d_V = d_K when ``tied``); None: no value projection.
    d_out : int or None
        Output width d_O >= 1; None: no output projection (needs ``d_v``).
    kv_heads : int or None
        Distinct K/V projections h_KV, a divisor of h (default h: no sharing across heads).
    tied : bool
        W_r^V = W_r^K within every head (V_r = K_r).
    """

    n_tokens: int
    d_model: int
    heads: int
    d_k: int
    d_v: int | None = None
    d_out: int | None = None
    kv_heads: int | None = None
    tied: bool = False

    def __post_init__(self):
        for name in ("n_tokens", "d_model", "heads", "d_k"):
            object.__setattr__(self, name, check_count(getattr(self, name), name, 1))
        if self.d_model < self.n_tokens:
            raise ValueError(
                f"d_model must be >= n_tokens (X X^T / d = I_n), got d_model={self.d_model} "
                f"< n_tokens={self.n_tokens}"
            )
        if self.d_v is not None:
            object.__setattr__(self, "d_v", check_count(self.d_v, "d_v", 1))
        if self.d_out is not None:
            object.__setattr__(self, "d_out", check_count(self.d_out, "d_out", 1))
            if self.d_v is None:
                raise ValueError("d_out needs d_v: an output projection acts on the values")
        if self.kv_heads is None:
            object.__setattr__(self, "kv_heads", self.heads)
        object.__setattr__(self, "kv_heads", check_count(self.kv_heads, "kv_heads", 1))
        if self.heads % self.kv_heads:
            raise ValueError(
                f"kv_heads must divide heads, got kv_heads={self.kv_heads}, heads={self.heads}"
            )
        if not isinstance(self.tied, bool):
            raise ValueError(f"tied must be True or False, got {self.tied!r}")
        if self.tied and self.d_v != self.d_k:
            raise ValueError(f"tied needs d_v = d_k, got d_v={self.d_v}, d_k={self.d_k}")

    @property
    def sharing(self) -> str:
        """'none', 'GQA' (1 < h_KV < h), 'MQA' (h_KV = 1 < h) or 'K=V' (tied within heads)."""
        if self.tied:
            return "K=V"
        if self.kv_heads == self.heads:
            return "none"
        return "MQA" if self.kv_heads == 1 else "GQA"

    def kv_group(self, head: int) -> int:
        """K/V projection used by query head r (0-based): r // (h / h_KV)."""
        if not 0 <= head < self.heads:
            raise ValueError(f"head must lie in [0, {self.heads}), got {head!r}")
        return head // (self.heads // self.kv_heads)

    @property
    def gamma_k(self) -> float:
        """gamma_K = h d_K / n (2.2)."""
        return self.heads * self.d_k / self.n_tokens

    @property
    def gamma_v(self) -> float | None:
        """gamma_V = h d_V / n (2.3); None without a value projection."""
        return None if self.d_v is None else self.heads * self.d_v / self.n_tokens

    @property
    def gamma_o(self) -> float | None:
        """gamma_O = d_O / n (2.3); None without an output projection."""
        return None if self.d_out is None else self.d_out / self.n_tokens

    @property
    def value_width(self) -> int:
        """Columns of one head's values V_r: d_V, or n without a value projection."""
        return self.n_tokens if self.d_v is None else self.d_v

    @property
    def output_width(self) -> int:
        """Columns of the layer output: d_O, or h x (columns of V_r) without W^O."""
        return self.heads * self.value_width if self.d_out is None else self.d_out
