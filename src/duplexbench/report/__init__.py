"""Reports over run directories: read-only views of what runs recorded.

`viewer.py` (`duplexbench view`): one episode folder as a static HTML page.
"""
