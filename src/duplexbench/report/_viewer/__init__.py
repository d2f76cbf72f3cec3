"""`duplexbench view`: one episode folder as a static, offline HTML page.

`episode_page.py` loads the episode and assembles the page (`load_episode`,
`build_html`, `write_viewer`); `timeline_rows.py` renders the event timeline,
`waveform.py` the waveform peaks and audio sources, `score_tables.py` the
header and scores, `assets.py` the inline CSS and script.
"""

from duplexbench.report._viewer.episode_page import (
    Episode,
    ViewerError,
    build_html,
    load_episode,
    write_viewer,
)

__all__ = ["Episode", "ViewerError", "build_html", "load_episode", "write_viewer"]
