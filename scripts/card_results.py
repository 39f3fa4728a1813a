#!/usr/bin/python3
"""Adds match results to a shipped network's card (networks/NAME), its network files unchanged.

usage: /usr/bin/python3 scripts/card_results.py FOLDER MATCH_JSON... [--played-in DIR]

Each MATCH_JSON is the output of `veletas match --json`, or of `veletas pool --json` for a
match played in parts, whose player A is FOLDER's network: an `mcts:CKPT:N` spec with N the
card's simulations and CKPT (relative to --played-in, default the JSON file's folder) a file
with the same SHA-256 as FOLDER/model.ckpt. Its result replaces the card's result against the
same opponent (player B's spec), or is added; the results stay in the order random, uct:1000,
uct:10000, uct:100000, then any other. CARD.md and card.json are rewritten (CARD.md's SHA-256
in the card with it); every other file must still match the card. Exit status: 0 on success, 2
on bad input (a file the card does not vouch for, a match of another network, a missing field).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ship_network as sn  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(description="add match results to a shipped network's card")
    p.add_argument("folder", metavar="FOLDER", help="the shipped network, e.g. networks/standard-10x10")
    p.add_argument("matches", metavar="MATCH_JSON", nargs="+",
                   help="`veletas match --json` or `veletas pool --json` output")
    p.add_argument("--played-in", metavar="DIR",
                   help="where the matches were played (their checkpoint paths are relative to it)")
    return p.parse_args(argv)


def check_network(m, path, folder, card, played_in):
    spec = m.get("players", {}).get("a", {}).get("spec", "")
    parts = spec.split(":")
    if len(parts) < 3 or parts[0] != "mcts":
        raise sn.BadInput("%s: player A is %r, not the network (mcts:CKPT:N)" % (path, spec))
    ckpt, sims = parts[1], parts[2]
    if sims != str(card["simulations"]):
        raise sn.BadInput("%s: player A searched %s simulations; the card's results use %d" %
                          (path, sims, card["simulations"]))
    where = os.path.join(played_in or os.path.dirname(os.path.abspath(path)), ckpt)
    if not os.path.isfile(where):
        raise sn.BadInput("%s: player A's checkpoint %s is not there to compare (--played-in)" %
                          (path, where))
    if sn.sha256(where) != card["files"]["model.ckpt"]:
        raise sn.BadInput("%s: player A's checkpoint %s is not %s/model.ckpt" % (path, where, folder))


def order(opponent):
    anchors = sn.DEFAULT_ANCHORS.split(",")
    return (anchors.index(opponent), "") if opponent in anchors else (len(anchors), opponent)


def add_results(args):
    folder = args.folder.rstrip("/")
    card = sn.read_json(os.path.join(folder, "card.json"))
    for name, digest in card.get("files", {}).items():
        if name != "CARD.md" and sn.sha256(os.path.join(folder, name)) != digest:
            raise sn.BadInput("%s/%s: SHA-256 differs from the card" % (folder, name))
    results = {r["opponent"]: r for r in card["results"]}
    for path in args.matches:
        m = sn.read_json(path)
        check_network(m, path, folder, card, args.played_in)
        anchor = m.get("players", {}).get("b", {}).get("spec", "")
        if not anchor:
            raise sn.BadInput("%s: no player B" % path)
        results[anchor] = sn.result_of(m, anchor, path)
        sn.log("%s: %s %d-%d" % (path, anchor, results[anchor]["wins"], results[anchor]["losses"]))
    card["results"] = [results[k] for k in sorted(results, key=order)]
    description = sn.read_json(os.path.join(folder, "model.json"))
    sn.write_text(os.path.join(folder, "CARD.md"), sn.card_markdown(card, description, folder))
    card["files"]["CARD.md"] = sn.sha256(os.path.join(folder, "CARD.md"))
    sn.write_text(os.path.join(folder, "card.json"), json.dumps(card, indent=1) + "\n")
    sn.log("rewrote %s/CARD.md and card.json: %s" % (folder, ", ".join(
        "%s %d-%d" % (r["opponent"], r["wins"], r["losses"]) for r in card["results"])))
    return 0


def main(argv):
    try:
        return add_results(parse_args(argv))
    except sn.BadInput as e:
        sn.log(str(e))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
