"""Built-in suites: the workflow generator, packaged suites and importers."""
