"""The workflow's plumbing: what the Snakemake rules and scripts need around the maths.

``startup`` (what the Snakefile runs while Snakemake reads it),
``configcheck`` and ``configdoc`` (the config schema's check and its documentation),
``memorycheck`` and ``preflight`` (refusals before any job), ``provenance`` (code commit and
config of an output), ``io`` (reading and writing results),
``notebooks`` and ``companion`` (the companion notebooks), ``costs`` (the run-time model) and
``drift`` (regenerated outputs against committed ones).
"""
