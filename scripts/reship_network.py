#!/usr/bin/python3
"""Rewrites a shipped network (networks/NAME) in the shipped form of this build, its network
unchanged: what scripts/ship_network.py would write today, without replaying its matches.

usage: /usr/bin/python3 scripts/reship_network.py FOLDER [--command "veletas ..."]
           [--notes TEXT] [--veletas PATH]

  1. Checks every file against the card (SHA-256), as scripts/card_results.py does.
  2. `veletas export --checkpoint` of FOLDER/model.ckpt: model.ckpt and model.json without
     the optimiser state and the run's training bookkeeping (the sample files read, with their
     paths on the machine that trained it). The network tensors must come out byte for byte
     as they were (checked), so model.onnx, config.yaml and the results stay valid as they are.
  3. --command and --notes replace the card's (the command a copyable `veletas` command line,
     as ship_network.py checks it; prose in the notes).
  4. Rewrites CARD.md and card.json (SHA-256 and sizes of the new files), each file atomically.

Exit status: 0 on success, 1 on a failed step, 2 on bad input (a file the card does not vouch
for, a command that is not a command line).
"""
import argparse
import json
import os
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ship_network as sn  # noqa: E402

HEADER_BYTES = 32  # model/base/checkpoint_file.h: magic, version, header size, length, checksum


def log(message):
    print("reship_network: " + message, file=sys.stderr, flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(description="rewrite a shipped network in this build's form")
    p.add_argument("folder", metavar="FOLDER", help="the shipped network, e.g. networks/standard-7x7")
    p.add_argument("--command", help="the card's new command (a copyable veletas command line)")
    p.add_argument("--notes", help="the card's new notes (what else is to be said of the run)")
    p.add_argument("--veletas", metavar="PATH", help="the veletas binary (as ship_network.py)")
    a = p.parse_args(argv)
    if a.command is not None:
        sn.check_command(a.command)
    return a


def sections(path):
    """The three payload sections of a checkpoint file (metadata, tensors, optimiser)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < HEADER_BYTES or data[:8] != b"VELZCKPT":
        raise sn.BadInput("%s: not a checkpoint" % path)
    out, at = [], HEADER_BYTES
    for _ in range(3):
        if at + 8 > len(data):
            raise sn.BadInput("%s: truncated" % path)
        (n,) = struct.unpack_from("<Q", data, at)
        out.append(data[at + 8:at + 8 + n])
        at += 8 + n
    return out


def reship(args):
    veletas = sn.find_veletas(args.veletas)
    folder = args.folder.rstrip("/")
    card = sn.read_json(os.path.join(folder, "card.json"))
    for name, digest in card.get("files", {}).items():
        if sn.sha256(os.path.join(folder, name)) != digest:
            raise sn.BadInput("%s/%s: SHA-256 differs from the card" % (folder, name))
    with tempfile.TemporaryDirectory(prefix="reship_network.") as work:
        sn.run([veletas, "export", "--model", os.path.join(folder, "model.ckpt"), "--out", work,
                "--checkpoint"], "veletas export")
        old, new = sections(os.path.join(folder, "model.ckpt")), sections(
            os.path.join(work, "model.ckpt"))
        if old[1] != new[1]:
            raise sn.Failure("the network tensors of the exported checkpoint differ from %s's"
                             % folder)
        for f in ["model.ckpt", "model.json"]:
            tmp = os.path.join(folder, ".%s.tmp.%d" % (f, os.getpid()))
            shutil.copyfile(os.path.join(work, f), tmp)
            os.replace(tmp, os.path.join(folder, f))
    if args.command is not None:
        card["command"] = args.command
    if args.notes is not None:
        card["notes"] = args.notes
    description = sn.read_json(os.path.join(folder, "model.json"))
    sn.write_text(os.path.join(folder, "CARD.md"), sn.card_markdown(card, description, folder))
    card["files"] = {f: sn.sha256(os.path.join(folder, f)) for f in sn.SHIPPED_FILES}
    sn.write_text(os.path.join(folder, "card.json"), json.dumps(card, indent=1) + "\n")
    log("rewrote %s: model.ckpt %d bytes (was %d), model.json %d bytes, network tensors "
           "unchanged (%d bytes)" % (folder, os.path.getsize(os.path.join(folder, "model.ckpt")),
                                     sum(len(s) for s in old) + HEADER_BYTES + 24,
                                     os.path.getsize(os.path.join(folder, "model.json")),
                                     len(new[1])))
    return 0


def main(argv):
    try:
        return reship(parse_args(argv))
    except sn.BadInput as e:
        log(str(e))
        return 2
    except sn.Failure as e:
        log(str(e))
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
