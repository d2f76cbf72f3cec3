"""The XSS corpus the report and viewer tests inject (docs/reliability.md).

Each payload, if it ever ran, would set `window.__pwned` to its name or make
the page request an `http://127.0.0.1:9/<name>` URL; a page passes when
neither happens and every payload shows as text. `HOSTILE` joins them all
into one string, which the tests put into agent names, transcripts, tool
arguments, effect names, item titles, field values and error messages.
"""

from __future__ import annotations

TRAP = "http://127.0.0.1:9"
"""Where request payloads point (port 9, discard: nothing answers)."""

XSS_CORPUS: dict[str, str] = {
    "script": "<script>window.__pwned='script'</script>",
    "script-close": "</script><script>window.__pwned='script-close'</script>",
    "mixed-case": "<ScRiPt>window.__pwned='mixed-case'</sCrIpT>",
    "img-onerror": "<img src=x onerror=\"window.__pwned='img-onerror'\">",
    "svg-onload": "<svg onload=\"window.__pwned='svg-onload'\"></svg>",
    "svg-script": "<svg><script>window.__pwned='svg-script'</script></svg>",
    "iframe-srcdoc": "<iframe srcdoc=\"<script>parent.__pwned='iframe-srcdoc'</script>\"></iframe>",
    "body-onload": "<body onload=\"window.__pwned='body-onload'\">",
    "details-ontoggle": "<details open ontoggle=\"window.__pwned='details-ontoggle'\">x</details>",
    "input-autofocus": "<input autofocus onfocus=\"window.__pwned='input-autofocus'\">",
    "video-source": "<video><source onerror=\"window.__pwned='video-source'\"></video>",
    "attr-double": '" onmouseover="window.__pwned=\'attr-double\'" x="',
    "attr-single": "' onfocus='window.__pwned=\"attr-single\"' autofocus x='",
    "style-close": "</style><script>window.__pwned='style-close'</script>",
    "title-close": "</title><script>window.__pwned='title-close'</script>",
    "textarea-close": "</textarea><script>window.__pwned='textarea-close'</script>",
    "comment-close": "--><script>window.__pwned='comment-close'</script><!--",
    "cdata": "<![CDATA[<script>window.__pwned='cdata'</script>]]>",
    "mxss-math": (
        "<math><mtext><table><mglyph><style><img src=x onerror=\"window.__pwned='mxss-math'\">"
    ),
    "javascript-href": "<a id=xss-link href=\"javascript:window.__pwned='javascript-href'\">x</a>",
    "object-data": "<object data=\"javascript:window.__pwned='object-data'\"></object>",
    "json-break": "\"}]};window.__pwned='json-break';//",
    "template-literal": "${window.__pwned='template-literal'}`;window.__pwned='template-literal';`",
    "line-separators": "\u2028\u2029</script><script>window.__pwned='line-separators'</script>",
    "entity-text": "&lt;script&gt;window.__pwned='entity-text'&lt;/script&gt;",
    "ext-img": f'<img src="{TRAP}/ext-img">',
    "ext-srcset": f'<img srcset="{TRAP}/ext-srcset 1x">',
    "ext-css-import": f'<style>@import "{TRAP}/ext-css-import";</style>',
    "ext-link": f'<link rel=stylesheet href="{TRAP}/ext-link">',
    "ext-meta-refresh": f'<meta http-equiv="refresh" content="0;url={TRAP}/ext-meta-refresh">',
    "ext-base": f'<base href="{TRAP}/ext-base/">',
    "ext-form": f'<form action="{TRAP}/ext-form"><button autofocus>go</button></form>',
}

HOSTILE = " ".join(XSS_CORPUS.values())

INJECTED = (
    "[onerror], [onload], [onmouseover], [onfocus], [ontoggle], [srcdoc], [autofocus], "
    "iframe, object, video, base, math, form[action], meta[http-equiv=refresh], "
    "link[rel=stylesheet], #xss-link"
)
"""CSS selector of the elements a payload would create (the pages have none of their own)."""

RAW_TAGS = (
    "<img",
    "</script><script>window",
    "<svg onload",
    "<iframe",
    "<ScRiPt",
    "<base",
    "<details open ontoggle",
    "<input autofocus",
    '<meta http-equiv="refresh',
)
"""Markup that must never appear unescaped in a page's HTML."""


def shown_as_text(text: str) -> list[str]:
    """The payload names whose text is missing from `text` (a page's visible text)."""
    flat = " ".join(text.split())
    return [name for name, p in XSS_CORPUS.items() if " ".join(p.split()) not in flat]
