"""The draws of loaded draw files: a job's input files of single draws (draw<d>.npz) and of
stacked draws (draws<N>.npz, :mod:`attnspec.papers.draw_batches`), as one record per draw."""

from attnspec.papers.draw_batches import unstack_draws


def draw_records(loaded_files) -> list[dict]:
    """One record per draw, in file order, from loaded draw files (dicts of arrays)."""
    return [record for loaded in loaded_files for record in unstack_draws(loaded)]
