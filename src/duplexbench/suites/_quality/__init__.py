"""The quality checks every suite passes: `duplexbench suite validate`, and every
generated or imported candidate before it is written."""
