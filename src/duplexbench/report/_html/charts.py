"""Inline SVG charts for the HTML report: heatmap, grouped bars, scatter.

Pure functions returning SVG markup; every label goes through `esc`, so a
run, item or agent name can never become markup. Values are rates in [0, 1]
(None: nothing to rate, drawn grey / left out).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from duplexbench.report._numbers import percent

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f")
FONT = 'font-family="system-ui, sans-serif" font-size="11"'
MAX_LABEL = 26


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def short(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pct(value: float | None) -> str:
    return percent(value, 0, missing="–")


def _svg(width: float, height: float, body: str, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'aria-label="{esc(title)}" {FONT}><title>{esc(title)}</title>{body}</svg>'
    )


def figure(svg: str, caption: str) -> str:
    """A chart with its visible caption."""
    return f"<figure>{svg}<figcaption>{esc(caption)}</figcaption></figure>"


def rate_color(value: float | None) -> str:
    """Red (0) through yellow (0.5) to green (1); grey for no value."""
    if value is None or not math.isfinite(value):
        return "#e0e0e0"
    v = min(1.0, max(0.0, value))
    if v < 0.5:
        r, g, b = 215, int(48 + (200 - 48) * v * 2), 39
    else:
        r, g, b = int(215 - (215 - 26) * (v - 0.5) * 2), int(200 - (200 - 152) * (v - 0.5) * 2), 80
    return f"#{r:02x}{g:02x}{b:02x}"


def heatmap(
    rows: Sequence[str],
    columns: Sequence[str],
    values: dict[tuple[str, str], tuple[float | None, str]],
    title: str,
) -> str:
    """A rows x columns grid coloured by rate; `values[(row, col)]` = (rate, tooltip)."""
    cell_w, cell_h, left, top = 92.0, 24.0, 190.0, 96.0
    width = left + cell_w * max(1, len(columns)) + 110  # room for the last rotated label
    height = top + cell_h * max(1, len(rows)) + 10
    parts = []
    for j, col in enumerate(columns):
        x = left + cell_w * j + cell_w / 2
        parts.append(
            f'<text x="{x:.1f}" y="{top - 6:.1f}" transform="rotate(-30 {x:.1f} {top - 6:.1f})">'
            f"<title>{esc(col)}</title>{esc(short(col, 22))}</text>"
        )
    for i, row in enumerate(rows):
        y = top + cell_h * i
        parts.append(
            f'<text x="{left - 6:.1f}" y="{y + cell_h / 2 + 4:.1f}" text-anchor="end">'
            f"<title>{esc(row)}</title>{esc(short(row, 30))}</text>"
        )
        for j, col in enumerate(columns):
            value, tip = values.get((row, col), (None, "no runs"))
            x = left + cell_w * j
            dark = value is not None and (value < 0.25 or value > 0.8)
            parts.append(
                f'<g><title>{esc(tip)}</title><rect x="{x:.1f}" y="{y:.1f}" '
                f'width="{cell_w - 2:.1f}" height="{cell_h - 2:.1f}" rx="2" '
                f'fill="{rate_color(value)}"/><text x="{x + cell_w / 2 - 1:.1f}" '
                f'y="{y + cell_h / 2 + 3:.1f}" text-anchor="middle" '
                f'fill="{"#fff" if dark else "#222"}">{esc(pct(value))}</text></g>'
            )
    return _svg(width, height, "".join(parts), title)


@dataclass(frozen=True)
class BarGroup:
    label: str
    values: Sequence[float | None]
    """One value per series (rates in [0, 1])."""
    notes: Sequence[str] = ()
    """Tooltip per series (counts behind the rate)."""


def _legend(series: Sequence[str], x: float, y: float) -> str:
    parts = []
    for k, name in enumerate(series):
        yy = y + 16 * k
        parts.append(
            f'<rect x="{x:.1f}" y="{yy - 9:.1f}" width="10" height="10" '
            f'fill="{PALETTE[k % len(PALETTE)]}"/>'
            f'<text x="{x + 14:.1f}" y="{yy:.1f}"><title>{esc(name)}</title>'
            f"{esc(short(name, 34))}</text>"
        )
    return "".join(parts)


def _axis(left: float, top: float, plot_h: float, plot_w: float) -> str:
    parts = []
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h * (1 - tick)
        parts.append(
            f'<line x1="{left:.1f}" x2="{left + plot_w:.1f}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="#ddd"/><text x="{left - 4:.1f}" y="{y + 4:.1f}" '
            f'text-anchor="end">{tick * 100:.0f}%</text>'
        )
    return "".join(parts)


def bar_chart(groups: Sequence[BarGroup], series: Sequence[str], title: str) -> str:
    """Grouped vertical bars: one group per label, one bar per series."""
    bar_w, gap, top, plot_h = 14.0, 18.0, 16.0, 180.0
    group_w = bar_w * max(1, len(series)) + gap
    longest = max((len(short(g.label, 22)) for g in groups), default=0)
    left = max(44.0, 5.4 * longest - group_w / 2 + 8)  # room for the first rotated label
    plot_w = group_w * max(1, len(groups))
    legend_x = left + plot_w + 16
    legend_w = 24 + 6.6 * min(34, max((len(s) for s in series), default=0))
    width = legend_x + legend_w
    height = max(top + plot_h + 16 + 3.2 * longest, top + 16 * len(series) + 10)
    parts = [_axis(left, top, plot_h, plot_w)]
    for i, group in enumerate(groups):
        x0 = left + group_w * i + gap / 2
        for k, value in enumerate(group.values):
            note = group.notes[k] if k < len(group.notes) else ""
            tip = f"{group.label} · {series[k]}: {pct(value)} {note}".strip()
            x = x0 + bar_w * k
            if value is None:
                parts.append(
                    f'<text x="{x + bar_w / 2:.1f}" y="{top + plot_h - 3:.1f}" '
                    f'text-anchor="middle" fill="#999"><title>{esc(tip)}</title>–</text>'
                )
                continue
            h = plot_h * min(1.0, max(0.0, value))
            parts.append(
                f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w - 2:.1f}" '
                f'height="{max(h, 0.5):.1f}" fill="{PALETTE[k % len(PALETTE)]}">'
                f"<title>{esc(tip)}</title></rect>"
            )
        cx = x0 + bar_w * len(series) / 2
        ly = top + plot_h + 12
        parts.append(
            f'<text x="{cx:.1f}" y="{ly:.1f}" text-anchor="end" '
            f'transform="rotate(-30 {cx:.1f} {ly:.1f})"><title>{esc(group.label)}</title>'
            f"{esc(short(group.label, 22))}</text>"
        )
    parts.append(_legend(series, legend_x, top + 10))
    return _svg(width, height, "".join(parts), title)


@dataclass(frozen=True)
class Point:
    label: str
    x: float
    """Median time to resolution, seconds."""
    y: float
    """Reliable@k."""
    highlighted: bool
    """On the Pareto set."""
    group: str = ""
    """Highlighted points of one group are joined (a frontier per suite and condition)."""


def nice_step(span: float, ticks: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about `ticks` ticks."""
    raw = max(span, 1e-9) / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw)


def scatter(points: Sequence[Point], title: str, x_label: str, y_label: str) -> str:
    """Rate (y, 0-1) against seconds (x); highlighted points filled and joined (frontier)."""
    left, top, plot_w, plot_h = 54.0, 16.0, 520.0, 240.0
    width = left + plot_w + 250
    height = max(top + plot_h + 46, top + 16 * len(points) + 10)
    step = nice_step(max((p.x for p in points), default=1.0) * 1.05)
    x_max = step * max(1, math.ceil(max((p.x for p in points), default=1.0) * 1.05 / step))

    def sx(x: float) -> float:
        return left + plot_w * x / x_max

    def sy(y: float) -> float:
        return top + plot_h * (1 - min(1.0, max(0.0, y)))

    parts = [_axis(left, top, plot_h, plot_w)]
    for k in range(round(x_max / step) + 1):
        x = step * k
        parts.append(
            f'<text x="{sx(x):.1f}" y="{top + plot_h + 14:.1f}" text-anchor="middle">{x:.0f}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 8:.1f}" text-anchor="middle">'
        f"{esc(x_label)}</text>"
        f'<text x="12" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">{esc(y_label)}</text>'
    )
    for group in sorted({p.group for p in points}):
        front = sorted((p for p in points if p.highlighted and p.group == group), key=lambda p: p.x)
        if len(front) > 1:
            path = " ".join(f"{sx(p.x):.1f},{sy(p.y):.1f}" for p in front)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="#4e79a7" stroke-dasharray="4 3"/>'
            )
    for k, p in enumerate(points):
        color = PALETTE[k % len(PALETTE)]
        fill = color if p.highlighted else "#fff"
        tip = f"{p.label}: {y_label} {pct(p.y)}, {p.x:.1f} s" + (
            " (Pareto)" if p.highlighted else ""
        )
        parts.append(
            f'<circle cx="{sx(p.x):.1f}" cy="{sy(p.y):.1f}" r="6" fill="{fill}" '
            f'stroke="{color}" stroke-width="2"><title>{esc(tip)}</title></circle>'
        )
    parts.append(_legend([p.label for p in points], left + plot_w + 16, top + 10))
    return _svg(width, height, "".join(parts), title)
