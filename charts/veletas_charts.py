"""Charts of a Veletas Zero run, drawn with matplotlib from the files the run writes.

Usage:
  veletas_charts.py report RUN_DIR OUT_DIR   every chart of a run into OUT_DIR:
      elo.png       Elo by generation with 95% intervals and the anchors (ratings.json,
                    promotions from state.json)
      losses.png    training losses, entropies and learning rate by step
                    (train/metrics.jsonl)
      speed.png     self-play games/min and network evaluations/s, samples/s written
                    and trained on, minutes per stage, by generation (state.json,
                    train/metrics.jsonl)
      gate.png      gate decisions: each candidate's Elo against the best network with its
                    interval, and the SPRT log-likelihood ratio game by game
                    (matches/*.json with a "gate" field, state.json)
  veletas_charts.py ratings RATINGS_JSON PNG  the Elo chart alone
  veletas_charts.py losses METRICS_JSONL PNG  the loss chart alone

Prints "wrote PATH" for every chart written and "skipped NAME: WHY" for a chart without
data. Unreadable lines and files are skipped with a note naming them; values that are not
finite numbers are left out of the charts. PNGs are written to a temporary name and renamed.
Exit codes: 0 done (some charts may be skipped), 1 a chart could not be drawn or written,
2 bad usage or an unreadable input named on the command line, 3 matplotlib is missing.

The `veletas` binary embeds this file and runs it with the first of $VELETAS_PYTHON,
/usr/bin/python3 and python3 that has matplotlib (charts/charts.h).
"""

import glob
import json
import math
import os
import sys
import warnings

EXIT_FAILED, EXIT_BAD_INPUT, EXIT_NO_MATPLOTLIB = 1, 2, 3
MAX_FILE_BYTES = 256 << 20  # larger inputs are not charts' business
MAX_MATCH_BYTES = 64 << 20

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as e:
    print(f"matplotlib is missing for {sys.executable}: {e}", file=sys.stderr)
    sys.exit(EXIT_NO_MATPLOTLIB)

warnings.filterwarnings("ignore")  # overflow notes from extreme but finite values
sys.setrecursionlimit(10000)


class BadInput(Exception):
    """An input named on the command line cannot be read."""


def note(message):
    print(message, flush=True)


LIMIT = 1e100  # larger magnitudes overflow matplotlib's axis arithmetic
left_out = []  # set when a number was not finite or beyond LIMIT (reported per chart)


def number(value):
    """A finite float within +-LIMIT, or None for anything else (null, NaN, infinities,
    huge values, strings, booleans)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    if math.isfinite(value) and abs(value) <= LIMIT:
        return value
    left_out.append(value)
    return None


def read_text(path, limit=MAX_FILE_BYTES):
    """The text of `path`, at most `limit` bytes; BadInput names the file otherwise."""
    try:
        if os.path.isdir(path):
            raise BadInput(f"{path}: is a directory")
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}") from None
    if len(data) > limit:
        raise BadInput(f"{path}: larger than {limit} bytes")
    return data.decode("utf-8", errors="replace")


def read_json(path, limit=MAX_FILE_BYTES):
    """A JSON object; BadInput names the file otherwise."""
    text = read_text(path, limit)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BadInput(f"{path}: not JSON: {str(e)[:200]}") from None
    if not isinstance(value, dict):
        raise BadInput(f"{path}: expected a JSON object")
    return value


def read_metrics(path):
    """The objects of a JSONL file; bad lines are skipped with a note naming them."""
    rows = []
    for number_, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            row = None
        if not isinstance(row, dict):
            note(f"{path}:{number_}: skipped: not a JSON object")
            continue
        rows.append(row)
    return rows


def series(rows, x_key, y_key):
    """(xs, ys) of the rows where both values are finite numbers."""
    xs, ys = [], []
    for row in rows:
        x, y = number(row.get(x_key)), number(row.get(y_key))
        if x is not None and y is not None:
            xs.append(x)
            ys.append(y)
    return xs, ys


def save(fig, path):
    """Writes the figure as PNG to a temporary name beside `path`, then renames it."""
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        fig.savefig(tmp, format="png", dpi=100)
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.remove(tmp)


def legend_outside(ax, *twins):
    """The legend of the lines of `ax` (and of its twin axes) to the right of the plot area,
    where it covers no curve; nothing when there are no labelled lines. The figure must use
    the constrained layout, which makes room for it."""
    handles, labels = [], []
    for a in (ax,) + twins:
        h, l = a.get_legend_handles_labels()
        handles += h
        labels += l
    if handles:
        x = 1.12 if twins else 1.02  # beyond the twin's axis labels
        ax.legend(handles, labels, fontsize=9, loc="upper left", bbox_to_anchor=(x, 1.0),
                  borderaxespad=0.0)


def generation_of(name):
    """N for a player named gen_N, else None."""
    if isinstance(name, str) and name.startswith("gen_") and name[4:].isdigit():
        return int(name[4:])
    return None


# --- Elo by generation ---------------------------------------------------------------


def draw_elo(path, ratings, promoted=None):
    """Elo of gen_N players with 95% intervals; other rated players as anchor lines.
    `promoted`: generation -> True/False (from state.json), marks rejected candidates."""
    players = ratings.get("players")
    if not isinstance(players, list):
        return "no players in the ratings"
    fixed = ratings.get("fixed") if isinstance(ratings.get("fixed"), dict) else {}
    gens, anchors = [], []
    for p in players:
        if not isinstance(p, dict) or not p.get("rated"):
            continue
        elo = number(p.get("elo"))
        if elo is None:
            continue
        ci = p.get("ci95") if isinstance(p.get("ci95"), list) else [elo, elo]
        low, high = (number(ci[0]), number(ci[1])) if len(ci) == 2 else (None, None)
        low, high = (elo if low is None else low), (elo if high is None else high)
        g = generation_of(p.get("name"))
        if g is not None:
            gens.append((g, elo, low, high))
        else:
            anchors.append((str(p.get("name")), elo))
    if not gens and not anchors:
        return "no rated players"
    gens.sort()
    fig, ax = plt.subplots(figsize=(12, 6), layout="constrained")
    if gens:
        xs = [g[0] for g in gens]
        ys = [g[1] for g in gens]
        yerr = [[max(0.0, g[1] - g[2]) for g in gens], [max(0.0, g[3] - g[1]) for g in gens]]
        ax.plot(xs, ys, color="tab:blue", linewidth=1.5, zorder=2)
        ax.errorbar(xs, ys, yerr=yerr, fmt="none", ecolor="tab:blue", alpha=0.5, capsize=3,
                    zorder=2)
        ax.fill_between(xs, [g[2] for g in gens], [g[3] for g in gens], color="tab:blue",
                        alpha=0.12, linewidth=0, label="95% interval")
        if promoted:
            kept = [(x, y) for x, y in zip(xs, ys) if promoted.get(x, True)]
            dropped = [(x, y) for x, y in zip(xs, ys) if not promoted.get(x, True)]
            if kept:
                ax.scatter(*zip(*kept), color="tab:blue", zorder=3, label="promoted")
            if dropped:
                ax.scatter(*zip(*dropped), facecolor="white", edgecolor="tab:blue", zorder=3,
                           label="rejected by the gate")
        else:
            ax.scatter(xs, ys, color="tab:blue", zorder=3, label="generation")
        best = max(gens, key=lambda g: g[1])
        ax.annotate(f"gen {best[0]}: {best[1]:+.0f}", (best[0], best[1]),
                    textcoords="offset points", xytext=(6, 8), fontsize=9)
        ax.xaxis.get_major_locator().set_params(integer=True)
    colours = ["tab:gray", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]
    for i, (name, elo) in enumerate(sorted(anchors, key=lambda a: a[1])):
        kind = "fixed" if name in fixed else "anchor"
        ax.axhline(elo, linestyle="--", linewidth=1, color=colours[i % len(colours)],
                   label=f"{name} {elo:+.0f} ({kind})")
    ax.set_title("Elo by generation (95% intervals; " +
                 ", ".join(f"{k} = {number(v) or 0:g}" for k, v in fixed.items()) + ")")
    ax.set_xlabel("generation")
    ax.set_ylabel("Elo")
    ax.grid(True, alpha=0.3)
    legend_outside(ax)
    save(fig, path)
    return None


# --- Training losses by step -----------------------------------------------------------


def draw_losses(path, rows):
    """Losses, policy entropies, value accuracy and the learning rate by training step."""
    if not series(rows, "step", "loss_total")[0]:
        return "no training metrics"
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(12, 8), sharex=True, layout="constrained",
                                      gridspec_kw={"height_ratios": [3, 2]})
    for key, label in [("loss_total", "total"), ("loss_policy", "policy"),
                       ("loss_value", "value"), ("loss_aux", "aux (shooter owners)"),
                       ("loss_l2", "L2")]:
        xs, ys = series(rows, "step", key)
        if xs:
            top.plot(xs, ys, label=label, marker="o" if len(xs) < 40 else None, markersize=3)
    xs, ys = series(rows, "step", "policy_target_entropy")
    if xs:
        top.plot(xs, ys, linestyle=":", color="black", label="policy target entropy (floor)")
    # The value loss by game phase (absent or -1 in older metrics files).
    for key, label in [("loss_value_setup", "value, setup"), ("loss_value_early", "value, early"),
                       ("loss_value_late", "value, late")]:
        xs, ys = series(rows, "step", key)
        kept = [(x, y) for x, y in zip(xs, ys) if y >= 0]
        if kept:
            top.plot([x for x, _ in kept], [y for _, y in kept], linestyle="--", linewidth=1,
                     label=label)
    starts = {}
    for row in rows:
        g, s = number(row.get("generation")), number(row.get("step"))
        if g is not None and s is not None:
            starts[g] = min(starts.get(g, s), s)
    if 1 < len(starts) <= 200:
        for s in sorted(starts.values())[1:]:
            top.axvline(s, color="gray", alpha=0.15, linewidth=1)
    top.set_title("Training losses by step" +
                  (f" (generations {int(min(starts))}-{int(max(starts))})" if starts else ""))
    top.set_ylabel("loss")
    top.grid(True, alpha=0.3)
    legend_outside(top)
    xs, ys = series(rows, "step", "learning_rate")
    if xs:
        bottom.plot(xs, ys, color="tab:purple", label="learning rate")
    bottom.set_ylabel("learning rate")
    bottom.set_xlabel("training step")
    bottom.grid(True, alpha=0.3)
    right = bottom.twinx()
    xs, ys = series(rows, "step", "value_accuracy")
    if xs:
        right.plot(xs, ys, color="tab:green", label="value sign accuracy")
    right.set_ylabel("value sign accuracy")
    legend_outside(bottom, right)
    save(fig, path)
    return None


# --- Speed and time per stage ----------------------------------------------------------


def draw_speed(path, generations, rows):
    """By generation: self-play games/min and network evaluations/s; samples/s produced by
    self-play and consumed by training; minutes per stage."""
    gens = [g for g in generations
            if isinstance(g, dict) and number(g.get("generation")) is not None]
    if not gens and not rows:
        return "no generations in state.json and no training metrics"
    # Games/min and evaluations/s in panels of their own: on twin axes of one panel two
    # proportional series (a fixed number of evaluations per game) are drawn one on the other.
    fig, (games, evals, samples, stages) = plt.subplots(4, 1, figsize=(12, 12), sharex=True,
                                                        layout="constrained")
    x = [number(g.get("generation")) for g in gens]

    def per_generation(numerator, denominator, scale=1.0):
        xs, ys = [], []
        for xv, g in zip(x, gens):
            n, d = number(g.get(numerator)), number(g.get(denominator))
            if n is not None and d:
                xs.append(xv)
                ys.append(scale * n / d)
        return xs, ys

    xs, ys = per_generation("selfplay_games", "selfplay_seconds", 60.0)
    if xs:
        games.plot(xs, ys, marker="o", color="tab:blue", label="games/min")
    games.set_ylabel("games per minute")
    games.set_title("Self-play speed: games")
    games.grid(True, alpha=0.3)
    legend_outside(games)
    xs, ys = per_generation("selfplay_network_evaluations", "selfplay_seconds")
    if xs:  # state.json files written before this counter existed lack it
        evals.plot(xs, ys, marker="D", color="tab:green", label="network evaluations/s")
    evals.set_ylabel("evaluations per second")
    evals.set_title("Self-play speed: network evaluations")
    evals.grid(True, alpha=0.3)
    legend_outside(evals)

    xs, ys = per_generation("selfplay_samples", "selfplay_seconds")
    if xs:
        samples.plot(xs, ys, marker="s", color="tab:cyan", label="written by self-play")
    by_gen = {}
    for row in rows:
        g, v = number(row.get("generation")), number(row.get("samples_per_second"))
        if g is not None and v is not None and v > 0:
            by_gen.setdefault(g, []).append(v)
    if by_gen:
        gs = sorted(by_gen)
        samples.plot(gs, [sum(by_gen[g]) / len(by_gen[g]) for g in gs], marker="^",
                     color="tab:red", label="trained on (mean of the metrics lines)")
    if any(y > 0 for line in samples.get_lines() for y in line.get_ydata()):
        samples.set_yscale("log")
    samples.set_ylabel("samples per second")
    samples.set_title("Samples per second")
    samples.grid(True, which="both", alpha=0.3)
    legend_outside(samples)

    base = [0.0] * len(gens)
    for key, label in [("selfplay_seconds", "self-play"), ("train_seconds", "training"),
                       ("gate_seconds", "gate"), ("ladder_seconds", "ladder")]:
        minutes = [(number(g.get(key)) or 0.0) / 60.0 for g in gens]
        if any(minutes):
            stages.bar(x, minutes, bottom=base, label=label, width=0.8)
            base = [b + m for b, m in zip(base, minutes)]
    stages.set_ylabel("minutes")
    stages.set_xlabel("generation")
    stages.set_title("Time per stage")
    stages.grid(True, axis="y", alpha=0.3)
    if any(base):
        legend_outside(stages)
    stages.xaxis.get_major_locator().set_params(integer=True)
    save(fig, path)
    return None


# --- Gate decisions --------------------------------------------------------------------


def expected_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def llr_path(results, sprt):
    """The SPRT log-likelihood ratio after each game (docs/RATINGS.md), or [] without SPRT."""
    elo0, elo1 = number(sprt.get("elo0")), number(sprt.get("elo1"))
    if elo0 is None or elo1 is None:
        return []
    p0, p1 = expected_score(elo0), expected_score(elo1)
    if not (0 < p0 < 1 and 0 < p1 < 1):
        return []
    win, loss = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
    llr, path = 0.0, [0.0]
    for r in results:
        if isinstance(r, dict) and r.get("winner") in ("a", "b"):
            llr += win if r["winner"] == "a" else loss
            path.append(llr)
    return path


def gate_matches(run_dir):
    """(candidate generation, gate evidence, results) of every readable gate match."""
    out = []
    for path in sorted(glob.glob(os.path.join(run_dir, "matches", "*.json"))):
        try:
            m = read_json(path, MAX_MATCH_BYTES)
        except BadInput as e:
            note(f"skipped {e}")
            continue
        gate = m.get("gate")
        players = m.get("players") if isinstance(m.get("players"), dict) else {}
        a = players.get("a") if isinstance(players.get("a"), dict) else {}
        g = generation_of(a.get("name"))
        if isinstance(gate, dict) and g is not None:
            results = m.get("results") if isinstance(m.get("results"), list) else []
            out.append((g, gate, results))
    return sorted(out, key=lambda t: t[0])


def running_score(results):
    """The candidate's score after each game (from the second game on)."""
    wins, path = 0, []
    for n, r in enumerate((r for r in results if isinstance(r, dict)), 1):
        wins += r.get("winner") == "a"
        path.append(wins / n)
    return path


def draw_gate_evidence(ax, matches, colour):
    """Game by game: the SPRT LLR with its bounds when any gate used SPRT, else the running
    score of fixed-games gates with their thresholds."""
    sprt = any(isinstance(gate.get("sprt"), dict) for _, gate, _ in matches)
    lines = set()
    for g, gate, results in matches:
        c = colour.get(gate.get("decision"), "tab:gray")
        if sprt:
            params = gate.get("sprt") if isinstance(gate.get("sprt"), dict) else None
            path = llr_path(results, params) if params else []
            lines.update(number(params.get(k)) for k in ("lower", "upper") if params)
            xs = range(len(path))
        else:
            fixed = gate.get("fixed") if isinstance(gate.get("fixed"), dict) else {}
            lines.add(number(fixed.get("threshold")))
            path = running_score(results)
            xs = range(1, len(path) + 1)
        if path:
            ax.plot(xs, path, linewidth=1, color=c, alpha=0.7)
            ax.annotate(f"gen {g}", (len(path) - (not sprt), path[-1]), fontsize=7)
    for y in sorted(v for v in lines if v is not None):
        ax.axhline(y, linestyle="--", color="black", linewidth=0.8)
    ax.set_title("SPRT log-likelihood ratio by game (dashed: decision bounds)" if sprt else
                 "Candidate's score by game (dashed: promotion threshold)")
    ax.set_xlabel("games played")
    ax.set_ylabel("LLR" if sprt else "score")
    ax.grid(True, alpha=0.3)


def draw_gate(path, generations, matches):
    """Each candidate's Elo against the network it was gated against (95% interval; green
    promoted, red rejected, grey undecided), and the evidence game by game."""
    decisions = {}
    for g in generations:
        if isinstance(g, dict) and number(g.get("gated_against")) is not None \
                and number(g.get("gated_against")) >= 0 \
                and number(g.get("generation")) is not None:
            decisions[number(g["generation"])] = "promote" if g.get("promoted") else "reject"
    if not matches and not decisions:
        return "no gate matches"
    colour = {"promote": "tab:green", "reject": "tab:red"}
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(12, 8), layout="constrained")
    for g, gate, _ in matches:
        elo = number(gate.get("elo"))
        ci = gate.get("elo_ci95") if isinstance(gate.get("elo_ci95"), list) else []
        low, high = (number(ci[0]), number(ci[1])) if len(ci) == 2 else (None, None)
        decision = gate.get("decision", decisions.get(g))
        c = colour.get(decision, "tab:gray")
        if elo is not None:
            yerr = None
            if low is not None and high is not None:
                yerr = [[max(0.0, elo - low)], [max(0.0, high - elo)]]
            top.errorbar([g], [elo], yerr=yerr, fmt="o", color=c, capsize=3)
            games = number(gate.get("games"))
            top.annotate(f"{int(games)}" if games is not None else "", (g, elo), fontsize=7,
                         textcoords="offset points", xytext=(4, -10))
    plotted = {g for g, _, _ in matches}
    for g, decision in decisions.items():  # gates whose match file is missing
        if g not in plotted:
            top.axvline(g, color=colour[decision], alpha=0.3)
    top.axhline(0, color="black", linewidth=0.8)
    for decision, c in [("promoted", "tab:green"), ("rejected", "tab:red"),
                        ("undecided", "tab:gray")]:
        top.plot([], [], "o", color=c, label=decision)
    legend_outside(top)
    top.set_title("Gate: candidate minus best network, Elo with 95% interval (games played)")
    top.set_xlabel("candidate generation")
    top.set_ylabel("Elo difference")
    top.grid(True, alpha=0.3)
    top.xaxis.get_major_locator().set_params(integer=True)
    draw_gate_evidence(bottom, matches, colour)
    save(fig, path)
    return None


# --- Commands --------------------------------------------------------------------------


def draw(name, path, draw_fn, *args):
    """Runs one chart; returns True unless it failed."""
    left_out.clear()
    try:
        why = draw_fn(path, *args)
    except Exception as e:  # one chart that cannot be drawn does not stop the others
        print(f"{path}: cannot draw the chart: {type(e).__name__}: {str(e)[:300]}",
              file=sys.stderr)
        plt.close("all")
        return False
    note(f"skipped {name}: {why}" if why else f"wrote {path}")
    if left_out:
        note(f"{name}: {len(left_out)} value(s) not finite or beyond +-{LIMIT:g} left out")
    return True


def optional(reader, path):
    """reader(path), or None (with a note when the file exists but is unreadable)."""
    if not os.path.exists(path):
        return None
    try:
        return reader(path)
    except BadInput as e:
        note(f"skipped {e}")
        return None


def report(run_dir, out_dir):
    if not os.path.isdir(run_dir):
        raise BadInput(f"{run_dir}: no such run directory")
    os.makedirs(out_dir, exist_ok=True)
    state = optional(read_json, os.path.join(run_dir, "state.json")) or {}
    generations = state.get("generations") if isinstance(state.get("generations"), list) else []
    promoted = {number(g.get("generation")): bool(g.get("promoted")) for g in generations
                if isinstance(g, dict) and number(g.get("generation")) is not None}
    ratings = optional(read_json, os.path.join(run_dir, "ratings.json"))
    rows = optional(read_metrics, os.path.join(run_dir, "train", "metrics.jsonl")) or []
    ok = True
    if ratings is None:
        note("skipped elo.png: no ratings.json")
    else:
        ok &= draw("elo.png", os.path.join(out_dir, "elo.png"), draw_elo, ratings, promoted)
    ok &= draw("losses.png", os.path.join(out_dir, "losses.png"), draw_losses, rows)
    ok &= draw("speed.png", os.path.join(out_dir, "speed.png"), draw_speed, generations, rows)
    ok &= draw("gate.png", os.path.join(out_dir, "gate.png"), draw_gate, generations,
               gate_matches(run_dir))
    return 0 if ok else EXIT_FAILED


def main(argv):
    commands = {
        "report": lambda a, b: report(a, b),
        "ratings": lambda a, b: 0 if draw("ratings chart", b, draw_elo, read_json(a)) else 1,
        "losses": lambda a, b: 0 if draw("loss chart", b, draw_losses, read_metrics(a)) else 1,
    }
    if len(argv) != 3 or argv[0] not in commands:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return commands[argv[0]](argv[1], argv[2])
    except BadInput as e:
        print(e, file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
