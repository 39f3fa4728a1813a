#!/usr/bin/python3
"""scripts/ship_network.py end to end, and the commands that use a shipped network.

usage: ship_network_test.py VELETAS SOURCE_DIR WORK_DIR

A tiny pipeline run (configs/tiny.yaml) is shipped with 2 games per anchor into WORK/networks;
the card is checked against the files (SHA-256, sizes, config, results), a second shipping
reuses the first one's matches (--results-from), and `veletas play`, `engine` and `analyse`
with VELETAS_NETWORKS=WORK/networks name and use the shipped network by default, --model and
--uct override it, a game without a shipped network says so, and a damaged folder is refused
with exit code 2 naming the file.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

VELETAS, SOURCE, WORK = sys.argv[1:4]
SCRIPT = os.path.join(SOURCE, "scripts", "ship_network.py")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def run(cmd, env=None, stdin=""):
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env)


def must(cmd, **kw):
    r = run(cmd, **kw)
    if r.returncode != 0:
        sys.exit("FAIL: %s exited %d:\n%s\n%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
run_dir = os.path.join(WORK, "run")
networks = os.path.join(WORK, "networks")
must([VELETAS, "pipeline", "--config", os.path.join(SOURCE, "configs", "tiny.yaml"), "--run", run_dir])
with open(os.path.join(run_dir, "state.json")) as f:
    state = json.load(f)
matches = os.path.join(WORK, "matches.json")
ship = [sys.executable, SCRIPT, run_dir, "best", "standard-7x7", "--games", "2", "--anchors",
        "random,uct:20", "--veletas", VELETAS, "--commit", "0123abcd", "--command",
        "veletas pipeline --config configs/tiny.yaml --run run"]
r = must(ship + ["--networks", networks, "--matches-out", matches])
folder = os.path.join(networks, "standard-7x7")
with open(os.path.join(folder, "card.json")) as f:
    card = json.load(f)

# The card.
check(card["format"] == "veletas-network-card v1", "format: %r" % card["format"])
check(card["name"] == "standard-7x7" and card["rules"] == "standard" and card["size"] == 7,
      "game: %r %r %r" % (card["name"], card["rules"], card["size"]))
check(card["generation"] == state["best_generation"], "generation %r" % card["generation"])
check(card["commit"] == "0123abcd", "commit")
check(card["command"].startswith("veletas pipeline --config configs/tiny.yaml"), "command")
cpu = sum(g["cpu_seconds"] for g in state["generations"]
          if 0 < g["generation"] <= card["generation"]) / 60
check(card["cpu_minutes"] == round(cpu, 2), "cpu_minutes %r, state says %r" % (card["cpu_minutes"], cpu))
check(sorted(os.listdir(folder)) == sorted(["model.ckpt", "model.json", "model.onnx", "config.yaml",
                                            "CARD.md", "card.json"]),
      "files: %r" % sorted(os.listdir(folder)))
for name, digest in card["files"].items():
    check(sha256(os.path.join(folder, name)) == digest, "sha256 of " + name)
check(sorted(card["files"]) == sorted(["model.ckpt", "model.json", "model.onnx", "config.yaml",
                                       "CARD.md"]), "files listed: %r" % sorted(card["files"]))
total = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
check(total <= 8 << 20, "the folder holds %d bytes" % total)
with open(os.path.join(run_dir, "config.resolved.yaml")) as a, \
        open(os.path.join(folder, "config.yaml")) as b:
    check(a.read() == b.read(), "config.yaml is the run's effective config")
check([x["opponent"] for x in card["results"]] == ["random", "uct:20"], "opponents")
for x in card["results"]:
    check(x["games"] == 2 and x["wins"] + x["losses"] == 2, "result %r" % x)
    check(x["elo_low"] is None or x["elo_high"] is None or x["elo_low"] <= x["elo_high"],
          "interval %r" % x)
with open(matches) as f:
    played = json.load(f)
check([m["players"]["b"]["spec"] for m in played] == ["random", "uct:20"], "matches-out")
check(all(m["a_wins"] == x["wins"] for m, x in zip(played, card["results"])), "wins as played")
with open(os.path.join(folder, "CARD.md")) as f:
    md = f.read()
check("| uct:20 | 2 |" in md and "0123abcd" in md, "CARD.md:\n" + md)
# No path of this machine in the shipped files (issue 47): the run's checkpoints record the
# sample files they were trained on with their absolute paths under WORK; the shipped ones not.
with open(os.path.join(run_dir, "models", "gen_%04d.ckpt" % card["generation"]), "rb") as f:
    check(run_dir.encode() in f.read(), "the run's checkpoint holds no path (the check's premise)")
for name in ["model.ckpt", "model.json", "model.onnx", "config.yaml", "CARD.md", "card.json"]:
    with open(os.path.join(folder, name), "rb") as f:
        data = f.read()
    check(WORK.encode() not in data and b"training.data" not in data,
          "%s holds a path of this machine or the training bookkeeping" % name)
# The card's command is a command line; prose goes into --notes, shown after it.
r = run(ship + ["--networks", os.path.join(WORK, "networks3"), "--results-from", matches,
                "--command", "veletas pipeline --config c.yaml --run r, stopped by hand"])
check(r.returncode == 2 and "put prose in --notes" in r.stderr, "prose command: " + r.stderr)
r = must(ship + ["--networks", os.path.join(WORK, "networks3"), "--results-from", matches,
                 "--notes", "stopped by hand"])
with open(os.path.join(WORK, "networks3", "standard-7x7", "CARD.md")) as f:
    check("Trained by: `veletas pipeline --config configs/tiny.yaml --run run` (stopped by hand)"
          in f.read(), "notes in CARD.md")
import onnx  # noqa: E402  (Debian's python3-onnx, as scripts/export_onnx.py)
onnx.checker.check_model(onnx.load(os.path.join(folder, "model.onnx")))

# The matches reused: the same results, no match played.
r = must(ship + ["--networks", os.path.join(WORK, "networks2"), "--results-from", matches])
with open(os.path.join(WORK, "networks2", "standard-7x7", "card.json")) as f:
    again = json.load(f)
check(again["results"] == card["results"], "reused results differ")
check("playing" not in r.stderr and "reusing the match against uct:20" in r.stderr, r.stderr)
# An existing folder is kept without --force.
r = run(ship + ["--networks", networks, "--results-from", matches])
check(r.returncode == 2 and "pass --force" in r.stderr, "existing folder: " + r.stderr)

# More results for the card: a match played in parts, pooled, added by scripts/card_results.py;
# the network's files stay as they were.
parts_dir = os.path.join(WORK, "parts")
os.makedirs(parts_dir)
net = os.path.join(parts_dir, "net.ckpt")
shutil.copyfile(os.path.join(folder, "model.ckpt"), net)
for s in (1, 2):
    must([VELETAS, "match", "--config", os.path.join(folder, "config.yaml"), "--a",
          "mcts:%s:%d" % (net, card["simulations"]), "--b", "uct:30", "--games", "2", "--seed",
          str(s), "--name", "p%d" % s, "--out", parts_dir, "--a-name", "standard-7x7"])
pooled = os.path.join(WORK, "pooled.json")
with open(pooled, "w") as f:
    f.write(must([VELETAS, "pool", "--json"] + [os.path.join(parts_dir, "matches", "p%d.json" % s)
                                                 for s in (1, 2)]).stdout)
card_script = os.path.join(SOURCE, "scripts", "card_results.py")
must([sys.executable, card_script, folder, pooled])
with open(os.path.join(folder, "card.json")) as f:
    card3 = json.load(f)
check([x["opponent"] for x in card3["results"]] == ["random", "uct:20", "uct:30"],
      "opponents after card_results: %r" % [x["opponent"] for x in card3["results"]])
check(card3["results"][2]["games"] == 4, "pooled games: %r" % card3["results"][2])
check(card3["results"][:2] == card["results"], "earlier results changed")
for name in ["model.ckpt", "model.json", "model.onnx", "config.yaml"]:
    check(card3["files"][name] == card["files"][name], "card_results changed " + name)
check(card3["files"]["CARD.md"] == sha256(os.path.join(folder, "CARD.md")), "CARD.md's SHA-256")
with open(os.path.join(folder, "CARD.md")) as f:
    check("| uct:30 | 4 |" in f.read(), "CARD.md lacks the pooled result")
# A match of another network is refused, and the card left as it was.
with open(pooled) as f:
    other = json.load(f)
other["players"]["a"]["spec"] = "mcts:%s:%d" % (os.path.join(run_dir, "models", "gen_0000.ckpt"),
                                                card["simulations"])
with open(os.path.join(WORK, "other.json"), "w") as f:
    json.dump(other, f)
r = run([sys.executable, card_script, folder, os.path.join(WORK, "other.json")])
check(r.returncode == 2 and "is not " in r.stderr, "another network: " + r.stderr)
with open(os.path.join(folder, "card.json")) as f:
    check(json.load(f) == card3, "a refused match changed the card")

# A folder in an older form (its checkpoint with the run's bookkeeping) brought to the shipped
# form by scripts/reship_network.py: the bookkeeping gone, the card right, the network loads.
old_form = os.path.join(WORK, "networks4", "standard-7x7")
shutil.copytree(folder, old_form)
shutil.copyfile(os.path.join(run_dir, "models", "gen_%04d.ckpt" % card["generation"]),
                os.path.join(old_form, "model.ckpt"))
with open(os.path.join(old_form, "card.json")) as f:
    old_card = json.load(f)
old_card["files"]["model.ckpt"] = sha256(os.path.join(old_form, "model.ckpt"))
with open(os.path.join(old_form, "card.json"), "w") as f:
    json.dump(old_card, f)
reship = [sys.executable, os.path.join(SOURCE, "scripts", "reship_network.py"), old_form,
          "--veletas", VELETAS]
must(reship + ["--notes", "reshipped"])
with open(os.path.join(old_form, "model.ckpt"), "rb") as f:
    check(WORK.encode() not in f.read(), "reship left a path in model.ckpt")
with open(os.path.join(old_form, "model.ckpt"), "rb") as a, \
        open(os.path.join(folder, "model.ckpt"), "rb") as b:
    check(a.read() == b.read(), "reship and ship give different checkpoints")
with open(os.path.join(old_form, "card.json")) as f:
    new_card = json.load(f)
check(new_card["notes"] == "reshipped" and new_card["results"] == card3["results"], "reshipped card")
for name, digest in new_card["files"].items():
    check(sha256(os.path.join(old_form, name)) == digest, "reshipped sha256 of " + name)
r = run([VELETAS, "engine", "--size", "7", "--simulations", "4"],
        env=dict(os.environ, VELETAS_NETWORKS=os.path.dirname(old_form)), stdin="genmove\nquit\n")
check(r.returncode == 0 and "shipped network standard-7x7" in r.stderr, "reshipped: " + r.stderr)
r = run(reship + ["--command", "veletas pipeline (by hand)"])
check(r.returncode == 2 and "--command" in r.stderr, "reship prose command: " + r.stderr)

# The commands use it by default.
env = dict(os.environ, VELETAS_NETWORKS=networks)
# Named by the card's name only: no path of this machine in what a GUI logs (issue 47).
named = "plays the shipped network standard-7x7 (its CARD.md has its results)"
r = run([VELETAS, "engine", "--size", "7", "--simulations", "4"], env=env, stdin="name\nquit\n")
check(r.returncode == 0 and named in r.stderr, "engine: " + r.stderr)
check(folder not in r.stderr, "engine names the folder's path: " + r.stderr)
check("shipped network standard-7x7" in r.stderr.splitlines()[-1], "engine line: " + r.stderr)
r = run([VELETAS, "play", "--size", "7", "--simulations", "4", "--seed", "1"], env=env,
        stdin="quit\n")
check(r.returncode == 0 and named in r.stderr, "play: " + r.stderr)
record_file = os.path.join(run_dir, "matches")
record = None
for name in sorted(os.listdir(record_file)):
    if name.endswith(".records.txt"):
        with open(os.path.join(record_file, name)) as f:
            record = f.readline().strip()
        break
check(record, "a game record of the run")
r = run([VELETAS, "analyse", "--size", "7", "--simulations", "4", "--seed", "1", "--json",
         record], env=env)
check(r.returncode == 0 and named in r.stderr, "analyse: " + r.stderr)
check(r.returncode == 0 and "shipped network standard-7x7" in json.loads(r.stdout or "{}").get(
    "engine", ""), "analyse engine: " + r.stdout[:300])
# --model and --uct override it.
r = run([VELETAS, "engine", "--model", os.path.join(run_dir, "models", "gen_0000.ckpt")],
        env=env, stdin="quit\n")
check(r.returncode == 0 and "shipped" not in r.stderr and "gen_0000.ckpt" in r.stderr,
      "engine --model: " + r.stderr)
r = run([VELETAS, "engine", "--size", "7", "--uct", "50"], env=env, stdin="quit\n")
check(r.returncode == 0 and "shipped" not in r.stderr and "uct(50)" in r.stderr,
      "engine --uct: " + r.stderr)
# No network for 9x9: UCT plays, and the line says so.
r = run([VELETAS, "engine", "--size", "9"], env=env, stdin="quit\n")
check(r.returncode == 0 and "no network is shipped for standard-9x9" in r.stderr and
      "uct(1000)" in r.stderr, "engine 9x9: " + r.stderr)
# A damaged file: exit 2 naming it.
with open(os.path.join(folder, "model.onnx"), "ab") as f:
    f.write(b"x")
r = run([VELETAS, "play", "--size", "7"], env=env, stdin="quit\n")
check(r.returncode == 2 and "model.onnx: SHA-256" in r.stderr, "damaged: " + r.stderr)

if failures:
    sys.exit("%d check(s) failed" % len(failures))
print("ship_network_test: all checks passed")
