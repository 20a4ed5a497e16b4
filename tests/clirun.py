"""Run ``python -m host_tools ARGV`` in-process: ``run_cli(argv, capsys)`` ->
(exit code, stdout, stderr), through ``host_tools.cli.main`` (a UserError is the
one-line ``error: …`` on stderr and code 2)."""

from host_tools import cli


def run_cli(argv, capsys):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err
