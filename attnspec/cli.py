"""Command line: attnspec edge --beta B --ratio C prints the bulk edge x_+ and 4(e^{B^2}-1).

x_+ is the right edge of nu_inf, the limit law of the squared singular values of sqrt(ell) A_perp
(paper A; paper B's scalar formula); 4(e^{beta^2}-1) is the edge of the Marchenko-Pastur
surrogate that paper A refutes. Bad input gets one line on stderr (no usage dump, no traceback)
and exit status 2; beta must lie in [1e-150, 26.6] and c in [1e-8, 1e8]
(:mod:`attnspec.validation`).
"""

import argparse
import os
import sys

from attnspec import __version__
from attnspec.validation import check_beta, check_ratio


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line: 'attnspec edge: error: ...'."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _argument(check):
    """An argparse type that parses a number and checks it with a theory validator."""

    def parse(text: str) -> float:
        if "_" in text:  # float() reads "1_0" as 10
            raise argparse.ArgumentTypeError(
                f"{text!r}: write the number without '_' (e.g. 1.5, 2e-3)"
            )
        try:
            return check(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


class _Once(argparse.Action):
    """Store an option's value, refusing the option given twice (argparse keeps the last)."""

    def __call__(self, parser, namespace, values, option_string=None):
        if option_string in getattr(namespace, "_given", set()):
            parser.error(f"{option_string} given twice; give it once")
        namespace._given = getattr(namespace, "_given", set()) | {option_string}
        setattr(namespace, self.dest, values)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="attnspec", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"attnspec {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    edge = commands.add_parser("edge", help="bulk edge x_+ and the MP surrogate edge 4(e^{b^2}-1)")
    edge.add_argument(
        "--beta",
        type=_argument(check_beta),
        action=_Once,
        required=True,
        help="inverse temperature, in [1e-150, 26.6]",
    )
    edge.add_argument(
        "--ratio",
        type=_argument(check_ratio),
        action=_Once,
        default=1.0,
        help="c = ell/d_qk, in [1e-8, 1e8] (default 1)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from attnspec.theory import bulk_edge, mp_edge  # after parsing: --help stays instant

    try:
        x_plus, surrogate = bulk_edge(args.beta, args.ratio), mp_edge(args.beta)
    except (ValueError, ArithmeticError, RuntimeError) as error:  # one line, never a traceback
        print(f"attnspec edge: error: {error}", file=sys.stderr)
        return 1
    return _write(
        f"beta = {args.beta:g}, c = ell/d_qk = {args.ratio:g}\n"
        f"x_+ = {x_plus:.12g}   (right edge of nu_inf)\n"
        f"4(exp(beta^2) - 1) = {surrogate:.12g}   (edge of the Marchenko-Pastur surrogate)\n"
        f"x_+ / (4(exp(beta^2) - 1)) = {x_plus / surrogate:.12g}\n"
    )


def _write(text: str) -> int:
    """Write ``text`` to standard output and return the exit status: 0, or 1 after one line on
    stderr when it cannot be written (a full disk, a closed pipe)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:
        # What is left in the buffer goes nowhere: flushing it again at exit would print a
        # traceback of its own.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(
            f"attnspec edge: error: cannot write the result to standard output "
            f"({error.strerror}); write it to a file on a disk with room, or to the terminal",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
