"""Loads an exported Veletas model with plain PyTorch (no code of this project) and checks
its outputs against those the C++ test recorded from the live network.

usage: check_export.py EXPORT_DIR CASE_JSON
CASE_JSON holds "shape" (input shape), "input" (flat list), and the expected flat
"policy", "value" and "aux". Exit status 0 when every output matches within 1e-5.
"""
import json
import sys

import torch


def main():
    export_dir, case_path = sys.argv[1], sys.argv[2]
    with open(export_dir + "/model.json") as f:
        description = json.load(f)
    with open(case_path) as f:
        case = json.load(f)
    module = torch.jit.load(export_dir + "/model.pt")
    module.eval()
    planes = description["input"]["planes"]
    shape = case["shape"]
    if len(planes) != shape[1]:
        print("model.json lists %d planes, input has %d" % (len(planes), shape[1]))
        return 1
    if planes[-1]["name"] != "board_mask":
        print("last plane is %s, expected board_mask" % planes[-1]["name"])
        return 1
    x = torch.tensor(case["input"], dtype=torch.float32).reshape(shape)
    with torch.no_grad():
        policy, value, aux = module(x)
    b, m = shape[0], shape[2]
    checks = [("policy", policy, [b, m * m + 1]), ("value", value, [b]),
              ("aux", aux, [b, 3, m, m])]
    for name, got, want_shape in checks:
        if list(got.shape) != want_shape:
            print("%s has shape %s, expected %s" % (name, list(got.shape), want_shape))
            return 1
        want = torch.tensor(case[name], dtype=torch.float32).reshape(want_shape)
        diff = (got - want).abs().max().item()
        if not diff <= 1e-5:
            print("%s differs by %g" % (name, diff))
            return 1
    print("ok: %d positions, canvas %d" % (b, m))
    return 0


if __name__ == "__main__":
    sys.exit(main())
