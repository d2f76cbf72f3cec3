"""Reports over run directories: read-only views of what runs recorded.

`viewer/` (`duplexbench view`): one episode folder as a static HTML page;
`html/` (`duplexbench report --html`): the report as one HTML file.
"""
