#!/usr/bin/python3
"""The layout of the run's charts (charts/veletas_charts.py): no two series are drawn
identically, and no legend covers a plot area.

usage: chart_layout_test.py SOURCE_DIR

Each chart is drawn from the fixture run (tests/fixtures/ratings_run, with its gate match) and
from generations whose network evaluations per game are fixed (evaluations/s proportional to
games/min: on twin axes of one panel the two curves were drawn one on the other, issue 47).
The figures are laid out as they would be saved, then checked in pixels:
  - every two lines of a figure with points differ somewhere by more than a pixel;
  - every legend lies inside the figure and overlaps no plot area (axes) of it.
Exit status 0 when every check holds, 1 otherwise (each failure printed).
"""
import importlib.util
import json
import os
import shutil
import sys
import tempfile

SOURCE = sys.argv[1]
spec = importlib.util.spec_from_file_location(
    "veletas_charts", os.path.join(SOURCE, "charts", "veletas_charts.py"))
charts = importlib.util.module_from_spec(spec)
spec.loader.exec_module(charts)
plt = charts.plt

failures = []
drawn = {}


def capture(fig, path):
    """Stands in for charts.save: lays the figure out as saving would, and keeps it."""
    fig.canvas.draw()
    drawn[os.path.basename(path)] = fig


charts.save = capture


def pixels(line):
    """The line's points in display (pixel) coordinates, or [] for a line without points."""
    xy = line.get_xydata()
    if len(xy) == 0:
        return []
    return [tuple(p) for p in line.get_transform().transform(xy)]


def check_figure(name, fig):
    renderer = fig.canvas.get_renderer()
    lines = [(ax, line) for ax in fig.axes for line in ax.get_lines() if len(pixels(line)) >= 2]
    for i, (ax_a, a) in enumerate(lines):
        for ax_b, b in lines[i + 1:]:
            pa, pb = pixels(a), pixels(b)
            if len(pa) == len(pb) and all(abs(x1 - x2) <= 1 and abs(y1 - y2) <= 1
                                          for (x1, y1), (x2, y2) in zip(pa, pb)):
                failures.append("%s: %r (%s) and %r (%s) are drawn on the same pixels" %
                                (name, a.get_label(), ax_a.get_title() or ax_a.get_ylabel(),
                                 b.get_label(), ax_b.get_title() or ax_b.get_ylabel()))
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    if not legends:
        failures.append("%s: no legend" % name)
    for legend in legends:
        box = legend.get_window_extent(renderer)
        if not fig.bbox.contains(box.x0, box.y0) or not fig.bbox.contains(box.x1, box.y1):
            failures.append("%s: a legend reaches beyond the figure: %s" % (name, box))
        for ax in fig.axes:
            if box.overlaps(ax.get_window_extent(renderer)):
                failures.append("%s: the legend %r covers the plot area of %r" %
                                (name, [t.get_text() for t in legend.get_texts()][:3],
                                 ax.get_title() or ax.get_ylabel()))


def draw_all(run_dir, label):
    drawn.clear()
    charts.report(run_dir, os.path.join(run_dir, "report"))
    for name in ["elo.png", "losses.png", "speed.png", "gate.png"]:
        if name not in drawn:
            failures.append("%s: %s was not drawn" % (label, name))
    for name, fig in sorted(drawn.items()):
        check_figure("%s %s" % (label, name), fig)
        plt.close(fig)
    return sorted(drawn)


with tempfile.TemporaryDirectory(prefix="chart_layout.") as work:
    run = os.path.join(work, "fixture")
    shutil.copytree(os.path.join(SOURCE, "tests", "fixtures", "ratings_run"), run)
    shutil.copyfile(os.path.join(SOURCE, "tests", "fixtures", "charts", "gate_gen_2-vs-gen_1.json"),
                    os.path.join(run, "matches", "gate_gen_2-vs-gen_1.json"))
    draw_all(run, "fixture run")

    # Self-play with a fixed number of evaluations per game: evaluations/s = 2,000 x games/s.
    with open(os.path.join(run, "state.json")) as f:
        state = json.load(f)
    base = state["generations"][0]
    gens = []
    for g in range(1, 9):
        row = dict(base, generation=g, selfplay_seconds=60.0, selfplay_games=10 + 3 * g)
        row["selfplay_network_evaluations"] = 2000 * row["selfplay_games"]
        gens.append(row)
    state["generations"] = gens
    with open(os.path.join(run, "state.json"), "w") as f:
        json.dump(state, f)
    draw_all(run, "proportional speeds")

for f in failures:
    print("FAIL: " + f, file=sys.stderr)
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
