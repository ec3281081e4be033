"""Figure A5, distances: Kolmogorov and W1 distance to nu_inf of every attention and Y_lin draw."""

from attnspec.experiments.linearisation import distance_table
from attnspec.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    points = smk.params.points
    log.info("%d spectra (models x ell x beta x draws)", len(points))
    spectra = [load_npz(path)["squared_singular_values"] for path in smk.input]
    table = distance_table(spectra, points)
    save_npz(smk.output[0], **table)


main(snakemake)  # noqa: F821
