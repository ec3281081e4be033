"""Figure A5, distances: Kolmogorov and W1 distance to nu_inf of every attention and Y_lin draw,
and at the betas of the rows A.1 the Kolmogorov distances of the attention bulk to the wrong laws
those rows must rule out (the MP surrogate, nu_inf at beta (1 -+ 3 %))."""

from attnspec.papers.a.linearisation_summary import distance_table
from attnspec.workflow.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    draws = smk.params.draws
    spectra, points = [], []
    for point, path in zip(smk.params.points, smk.input, strict=True):
        values = load_npz(path)[point["model"]][:draws]
        spectra.extend(values)
        points.extend({**point, "draw": draw} for draw in range(draws))
    log.info("%d spectra (models x ell x beta x draws)", len(points))
    save_npz(smk.output[0], **distance_table(spectra, points))


main(snakemake)  # noqa: F821
