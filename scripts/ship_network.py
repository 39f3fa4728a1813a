#!/usr/bin/python3
"""Ships generation GEN of a pipeline run as networks/NAME/ (docs/USAGE.md, "Shipping a network").

usage: /usr/bin/python3 scripts/ship_network.py RUN GEN NAME [--games 200]
           [--anchors random,uct:1000,uct:10000,uct:100000] [--simulations N]
           [--command "veletas pipeline ..."] [--notes TEXT] [--commit HASH] [--matches-out FILE]
           [--results-from FILE] [--networks DIR] [--veletas PATH] [--force]

RUN is a `veletas pipeline` run directory (RUN/state.json, RUN/config.resolved.yaml,
RUN/models/gen_NNNN.ckpt); GEN a generation number or "best" (the run's best network). NAME
is the folder's name: RULES-NxN (e.g. standard-7x7) is the one `veletas play`, `engine`,
`analyse` and the page use by default for that game.

What it does, in a staging folder beside networks/NAME (nothing is left there on failure):
  1. `veletas export --checkpoint`: model.ckpt (the checkpoint without optimiser state and
     the run's training bookkeeping: no path of the training machine) and model.json;
     scripts/export_onnx.py: model.onnx (the browser's network).
  2. config.yaml: the run's effective config (RUN/config.resolved.yaml).
  3. One `veletas match --json` per anchor: mcts:model.ckpt:N (N = --simulations, default the
     config's arena.simulations) against the anchor, --games games; or the anchor's match
     from --results-from (a JSON list of `veletas match --json` outputs, as --matches-out
     writes them, rewritten after every match so that a killed run keeps what it measured).
  4. CARD.md (for people) and card.json (format "veletas-network-card v1": name, rules, size,
     generation, config, command, notes, commit, cpu_minutes, the SHA-256 of every file,
     results with Elo and its 95% interval). The command is a `veletas` command line that can
     be copied as it is (default: the pipeline on the folder's config.yaml); what else is to
     be said of the run (a stop by hand, settings changed) goes into --notes.
  5. Checks the folder holds at most 8 MiB, moves it to networks/NAME (--force replaces an
     existing one) and, for a RULES-NxN name, that `veletas engine` finds and loads it.

cpu_minutes is the CPU time of the pipeline's process (state.json) over the iterations that
made generations 1..GEN, every stage included. Needs Debian's python3-torch, python3-onnx and
python3-yaml: run with /usr/bin/python3. Exit status: 0 on success, 1 on a failed step, 2 on
bad input.
"""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import yaml

CARD_FORMAT = "veletas-network-card v1"
MAX_FOLDER_BYTES = 8 << 20  # model/base/shipped_networks.h kMaxShippedNetworkBytes
SHIPPED_FILES = ["model.ckpt", "model.json", "model.onnx", "config.yaml", "CARD.md"]
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ANCHORS = "random,uct:1000,uct:10000,uct:100000"


class BadInput(Exception):
    pass


class Failure(Exception):
    pass


def log(message):
    print("ship_network: " + message, file=sys.stderr, flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(description="Ship a pipeline run's generation as networks/NAME/.")
    p.add_argument("run", metavar="RUN", help="pipeline run directory")
    p.add_argument("gen", metavar="GEN", help='generation number, or "best"')
    p.add_argument("name", metavar="NAME", help="folder name, e.g. standard-7x7")
    p.add_argument("--games", type=int, default=200, help="games per anchor (default 200)")
    p.add_argument("--anchors", default=DEFAULT_ANCHORS,
                   help="comma-separated opponents (default %s)" % DEFAULT_ANCHORS)
    p.add_argument("--simulations", type=int,
                   help="the network's simulations per sub-decision in the matches "
                        "(default: the config's arena.simulations)")
    p.add_argument("--command", help="the veletas command line that trained the run (for the "
                   "card; copyable as it is: prose goes into --notes)")
    p.add_argument("--notes", default="", help="what else the card says of the run (e.g. where "
                   "it was stopped)")
    p.add_argument("--commit", help="the commit that trained the run (default: this tree's HEAD)")
    p.add_argument("--matches-out", metavar="FILE",
                   help="write every match's JSON output (a list) to FILE")
    p.add_argument("--results-from", metavar="FILE",
                   help="reuse the matches in FILE (as --matches-out writes) instead of playing")
    p.add_argument("--networks", metavar="DIR", default=os.path.join(SOURCE_DIR, "networks"),
                   help="folder of the shipped networks (default: the source tree's networks/)")
    p.add_argument("--veletas", metavar="PATH", help="the veletas binary (default: on PATH, "
                   "else build/app/veletas of the source tree)")
    p.add_argument("--seed", type=int, default=1, help="seed of the matches (default 1)")
    p.add_argument("--force", action="store_true", help="replace an existing networks/NAME")
    a = p.parse_args(argv)
    if a.games < 1:
        raise BadInput("--games: must be at least 1, got %d" % a.games)
    if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}", a.name):
        raise BadInput("NAME %r: use letters, digits, '_', '-', '.' (e.g. standard-7x7)" % a.name)
    if a.command is not None:
        check_command(a.command)
    a.anchors = [s.strip() for s in a.anchors.split(",") if s.strip()]
    if not a.anchors:
        raise BadInput("--anchors: no opponent given")
    return a


def check_command(command):
    """BadInput unless `command` reads as a `veletas` command line: words of the shell that
    start with veletas and a command name, then options (--name) and their values, none of
    them prose (a word ending in ',' or ';', or in parentheses)."""
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise BadInput("--command %r: not a command line (%s)" % (command, e))
    if len(words) < 2 or words[0] != "veletas" or not re.fullmatch(r"[a-z][a-z0-9-]*", words[1]):
        raise BadInput("--command %r: expected `veletas COMMAND [--option VALUE ...]`" % command)
    for w in words[2:]:
        if w[-1] in ",;" or w[0] in "([" or w[-1] in ")]" or (not w.startswith("-") and " " in w):
            raise BadInput("--command %r: %r is not an option or its value (put prose in "
                           "--notes)" % (command, w))


def find_veletas(path):
    candidates = [path] if path else [shutil.which("veletas"),
                                      os.path.join(SOURCE_DIR, "build", "app", "veletas")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    raise BadInput("no veletas binary (%s): build it or pass --veletas PATH" %
                   (path or "not on PATH, nor build/app/veletas"))


def run(cmd, what, **kw):
    """Runs `cmd`; its standard output, or Failure naming `what` with its error output."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        err = (r.stderr or r.stdout).strip()[-2000:]
        raise (BadInput if r.returncode == 2 else Failure)("%s failed (exit %d): %s" %
                                                           (what, r.returncode, err))
    return r.stdout


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput("%s: %s" % (path, e))


def read_run(run_dir, gen_text):
    """(state, generation, checkpoint path, config text, config) of the run."""
    state = read_json(os.path.join(run_dir, "state.json"))
    try:
        gen = int(state["best_generation"]) if gen_text == "best" else int(gen_text)
    except (KeyError, ValueError):
        raise BadInput('GEN %r: expected a generation number or "best"' % gen_text)
    ckpt = os.path.join(run_dir, "models", "gen_%04d.ckpt" % gen)
    if not os.path.isfile(ckpt):
        raise BadInput("%s: no such checkpoint (generation %d of %s)" % (ckpt, gen, run_dir))
    config_path = os.path.join(run_dir, "config.resolved.yaml")
    try:
        with open(config_path) as f:
            config_text = f.read()
        config = yaml.safe_load(config_text)
    except (OSError, yaml.YAMLError) as e:
        raise BadInput("%s: %s" % (config_path, e))
    return state, gen, ckpt, config_text, config


def cpu_minutes(state, gen):
    """CPU time of the iterations that made generations 1..gen, in minutes."""
    seconds = sum(float(g.get("cpu_seconds", 0)) for g in state.get("generations", [])
                  if 0 < int(g.get("generation", 0)) <= gen)
    return round(seconds / 60.0, 2)


def default_commit():
    try:
        return subprocess.run(["git", "-C", SOURCE_DIR, "rev-parse", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def export(veletas, ckpt, out_dir):
    run([veletas, "export", "--model", ckpt, "--out", out_dir, "--checkpoint"], "veletas export")
    run(["/usr/bin/python3", os.path.join(SOURCE_DIR, "scripts", "export_onnx.py"), out_dir],
        "scripts/export_onnx.py")


def match_of(outputs, anchor):
    """The match output in `outputs` whose player b is `anchor`, or None."""
    for m in outputs:
        if m.get("players", {}).get("b", {}).get("spec") == anchor:
            return m
    return None


def play_match(veletas, config_path, ckpt, anchor, args, simulations, work):
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", "%s-vs-%s" % (args.name, anchor))
    log("playing %d games against %s (%d simulations per sub-decision)" %
        (args.games, anchor, simulations))
    out = run([veletas, "match", "--config", config_path, "--a",
               "mcts:%s:%d" % (ckpt, simulations), "--b", anchor, "--games", str(args.games),
               "--json", "--out", work, "--name", name, "--a-name", args.name,
               "--seed", str(args.seed)], "veletas match against " + anchor)
    try:
        return json.loads(out)
    except ValueError as e:
        raise Failure("veletas match against %s: its output is not JSON: %s" % (anchor, e))


def result_of(m, anchor, where):
    """The card's result entry from a match output (the network is player a)."""
    try:
        games, wins, losses = int(m["games"]), int(m["a_wins"]), int(m["b_wins"])
        elo = m["elo"]
        bound = elo["bound"]
        low, high, mid = float(elo["low"]), float(elo["high"]), float(elo["a_minus_b"])
    except (KeyError, TypeError, ValueError) as e:
        raise BadInput("%s: the match against %s lacks %s (use the output of `veletas match "
                       "--json`)" % (where, anchor, e))
    r = {"opponent": anchor, "games": games, "wins": wins, "losses": losses,
         "score": round(wins / games, 4) if games else 0.0,
         "elo": round(mid, 1), "elo_low": round(low, 1), "elo_high": round(high, 1),
         "elo_bound": bound}
    if bound == "lower":  # won every game: only a lower bound is known
        r["elo"], r["elo_high"] = None, None
    elif bound == "upper":
        r["elo"], r["elo_low"] = None, None
    return r


def measure(veletas, stage, args, config, work):
    """The results against every anchor, and the match outputs they came from."""
    reused = read_json(args.results_from) if args.results_from else []
    if not isinstance(reused, list):
        raise BadInput("%s: expected a JSON list of match outputs" % args.results_from)
    simulations = args.simulations or int(config.get("arena", {}).get("simulations", 0))
    if simulations < 1:
        raise BadInput("--simulations: not given and the config has no arena.simulations")
    outputs, results = [], []
    for anchor in args.anchors:
        m = match_of(reused, anchor)
        where = args.results_from
        if m is None:
            m = play_match(veletas, os.path.join(stage, "config.yaml"),
                           os.path.join(stage, "model.ckpt"), anchor, args, simulations, work)
            where = "veletas match"
        else:
            log("reusing the match against %s from %s" % (anchor, args.results_from))
        outputs.append(m)
        if args.matches_out:
            write_text(args.matches_out, json.dumps(outputs, indent=1) + "\n")
        results.append(result_of(m, anchor, where))
    return results, simulations


def write_text(path, text):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def elo_text(r):
    if r["elo_bound"] == "lower":
        return ">= %+.0f (one-sided)" % r["elo_low"]
    if r["elo_bound"] == "upper":
        return "<= %+.0f (one-sided)" % r["elo_high"]
    return "%+.0f [%+.0f, %+.0f]" % (r["elo"], r["elo_low"], r["elo_high"])


def card_markdown(card, description, stage):
    a = description.get("architecture", {})
    lines = [
        "# %s" % card["name"], "",
        "A Veletas Zero network for %s rules on %dx%d: generation %d of the pipeline run `%s`, "
        "%s blocks x %s channels." % (card["rules"], card["size"], card["size"],
                                      card["generation"], card["run"], a.get("blocks", "?"),
                                      a.get("channels", "?")), "",
        "- Trained by: `%s`" % card["command"] +
        (" (%s)" % card["notes"] if card.get("notes") else ""),
        "- Commit: `%s`" % card["commit"],
        "- CPU time: %.2f CPU-minutes (the pipeline process, every stage up to this "
        "generation)" % card["cpu_minutes"],
        "- Config: `config.yaml` (the run's effective config)",
        "- Plays by default in `veletas play`, `engine` and `analyse` for this game, and in "
        "the browser page's Network menu, when the folder is named `%s-%dx%d`." %
        (card["rules"], card["size"], card["size"]), "",
        "## Results", "",
        "The network (MCTS, %d simulations per sub-decision) against each opponent, seats "
        "alternating (`veletas match`); Elo is the network minus the opponent with its 95%% "
        "interval." % card["simulations"], "",
        "| opponent | games | wins | losses | score | Elo |",
        "|---|---|---|---|---|---|"]
    for r in card["results"]:
        lines.append("| %s | %d | %d | %d | %.1f%% | %s |" % (
            r["opponent"], r["games"], r["wins"], r["losses"], 100 * r["score"], elo_text(r)))
    lines += ["", "## Files", "", "| file | bytes |", "|---|---|"]
    for f in SHIPPED_FILES[:-1]:
        lines.append("| %s | %d |" % (f, os.path.getsize(os.path.join(stage, f))))
    lines += ["", "SHA-256 of each file: `card.json` (the machine card, format `%s`)." %
              CARD_FORMAT, ""]
    return "\n".join(lines)


def folder_bytes(stage):
    return sum(os.path.getsize(os.path.join(stage, f)) for f in os.listdir(stage))


def install(stage, final, force):
    if os.path.exists(final):
        if not force:
            raise BadInput("%s exists: pass --force to replace it" % final)
        old = final + ".old.%d" % os.getpid()
        os.rename(final, old)
        os.rename(stage, final)
        shutil.rmtree(old)
    else:
        os.rename(stage, final)


def check_lookup(veletas, networks, card):
    """`veletas engine` must find and load the shipped network of its game."""
    if card["name"] != "%s-%dx%d" % (card["rules"], card["size"], card["size"]):
        log("%s is not named RULES-NxN: the commands do not use it by default" % card["name"])
        return
    env = dict(os.environ, VELETAS_NETWORKS=os.path.abspath(networks))
    r = subprocess.run([veletas, "engine", "--rules", card["rules"], "--size", str(card["size"])],
                       input="quit\n", capture_output=True, text=True, env=env)
    if r.returncode != 0 or ("shipped network " + card["name"]) not in r.stderr:
        raise Failure("veletas engine does not load the shipped network: " + r.stderr.strip())
    log("veletas engine loads it: " + r.stderr.strip().splitlines()[0])


def ship(args):
    veletas = find_veletas(args.veletas)
    state, gen, ckpt, config_text, config = read_run(args.run, args.gen)
    os.makedirs(args.networks, exist_ok=True)
    final = os.path.join(args.networks, args.name)
    if os.path.exists(final) and not args.force:
        raise BadInput("%s exists: pass --force to replace it" % final)
    stage = tempfile.mkdtemp(prefix="." + args.name + ".staging.", dir=args.networks)
    try:
        with tempfile.TemporaryDirectory(prefix="ship_network.") as work:
            log("exporting generation %d of %s" % (gen, args.run))
            export(veletas, ckpt, os.path.join(work, "export"))
            for f in ["model.ckpt", "model.json", "model.onnx"]:
                shutil.copyfile(os.path.join(work, "export", f), os.path.join(stage, f))
            write_text(os.path.join(stage, "config.yaml"), config_text)
            results, simulations = measure(veletas, stage, args, config, work)
        description = read_json(os.path.join(stage, "model.json"))
        card = {"format": CARD_FORMAT, "name": args.name, "rules": description["rules"],
                "size": int(description["size"]), "generation": gen,
                "run": os.path.basename(os.path.normpath(args.run)), "config": "config.yaml",
                "command": args.command or "veletas pipeline --config %s --run %s" % (
                    shlex.quote("networks/%s/config.yaml" % args.name),
                    shlex.quote(os.path.basename(os.path.normpath(args.run)))),
                "notes": args.notes or ("" if args.command else
                                        "the command was not recorded; the folder's config.yaml "
                                        "is the run's effective config"),
                "commit": args.commit or default_commit(),
                "cpu_minutes": cpu_minutes(state, gen), "simulations": simulations,
                "architecture": description.get("architecture", {}),
                "files": {}, "results": results}
        write_text(os.path.join(stage, "CARD.md"), card_markdown(card, description, stage))
        card["files"] = {f: sha256(os.path.join(stage, f)) for f in SHIPPED_FILES}
        write_text(os.path.join(stage, "card.json"), json.dumps(card, indent=1) + "\n")
        total = folder_bytes(stage)
        if total > MAX_FOLDER_BYTES:
            raise Failure("the folder would hold %d bytes, more than the %d a shipped network "
                          "may hold (a smaller network, or fewer files)" % (total, MAX_FOLDER_BYTES))
        install(stage, final, args.force)
    finally:
        if os.path.exists(stage):
            shutil.rmtree(stage)
    check_lookup(veletas, args.networks, card)
    log("shipped %s (%d bytes): %s" % (final, total, ", ".join(
        "%s %d-%d" % (r["opponent"], r["wins"], r["losses"]) for r in card["results"])))
    return 0


def main(argv):
    try:
        return ship(parse_args(argv))
    except BadInput as e:
        log(str(e))
        return 2
    except Failure as e:
        log(str(e))
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
