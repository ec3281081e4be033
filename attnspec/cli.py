"""Command line: attnspec edge --beta B --ratio C prints the bulk edge x_+ and 4(e^{B^2}-1).

x_+ is the right edge of nu_inf, the limit law of the squared singular values of sqrt(ell) A_perp
(paper A; paper B's scalar formula); 4(e^{beta^2}-1) is the edge of the Marchenko-Pastur
surrogate that paper A refutes.
"""

import argparse
import sys

from attnspec.theory import bulk_edge, mp_edge


def positive_number(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="attnspec", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    edge = commands.add_parser("edge", help="bulk edge x_+ and the MP surrogate edge 4(e^{b^2}-1)")
    edge.add_argument("--beta", type=positive_number, required=True, help="inverse temperature > 0")
    edge.add_argument(
        "--ratio", type=positive_number, default=1.0, help="c = ell/d_qk > 0 (default 1)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    x_plus, surrogate = bulk_edge(args.beta, args.ratio), mp_edge(args.beta)
    print(f"beta = {args.beta:g}, c = ell/d_qk = {args.ratio:g}")
    print(f"x_+ = {x_plus:.12g}   (right edge of nu_inf)")
    print(f"4(exp(beta^2) - 1) = {surrogate:.12g}   (edge of the Marchenko-Pastur surrogate)")
    print(f"x_+ / (4(exp(beta^2) - 1)) = {x_plus / surrogate:.12g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
