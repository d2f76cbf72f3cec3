"""`python -m duplexbench.cli`: the same as the `duplexbench` command."""

from duplexbench.cli import main

main()
