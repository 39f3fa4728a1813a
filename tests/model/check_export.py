"""Loads an exported Veletas model with plain PyTorch (no code of this project) and checks
its outputs against those the C++ test recorded from the live network.

usage: check_export.py EXPORT_DIR CASE_JSON [--onnx]
CASE_JSON holds "shape" (input shape), "input" (flat list), and the expected flat
"policy", "value" and "aux". Exit status 0 when every output matches within TOLERANCE (the
export folds batch norm into the convolutions, which changes the float rounding).
--onnx: also converts the module to ONNX as scripts/export_onnx.py does (needs python3-onnx)
and checks the graph: onnx.checker, inputs and outputs, no BatchNormalization node.
"""
import json
import os
import sys
import tempfile

import torch

TOLERANCE = 1e-4
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")


def check_onnx(module, export_dir):
    sys.path.insert(0, SCRIPTS)
    import export_onnx

    input_name, output_names, planes, size = export_onnx.load_description(export_dir)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.onnx")
        export_onnx.export(module, path, input_name, output_names, planes, size, 17)
        problem = export_onnx.check(path, input_name, output_names, planes)
        if problem:
            print("onnx: %s" % problem)
            return 1
        print("onnx: no BatchNormalization node; %s" % export_onnx.op_counts(path))
    return 0


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
        if not diff <= TOLERANCE:
            print("%s differs by %g (tolerance %g)" % (name, diff, TOLERANCE))
            return 1
        print("%s: max |difference| %.2e" % (name, diff))
    print("ok: %d positions, canvas %d" % (b, m))
    if "--onnx" in sys.argv[3:]:
        return check_onnx(module, export_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
