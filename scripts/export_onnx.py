#!/usr/bin/env python3
"""Converts a model exported by `veletas export` (DIR/model.pt + DIR/model.json) to ONNX.

usage: scripts/export_onnx.py DIR [--out FILE] [--opset N] [--reference CASE.json OUT.json]
(or `veletas export --onnx`, which runs it after writing DIR)

Loads the TorchScript module with torch.jit.load (no code of this project needed), exports
it with torch.onnx.export (input and output names as listed in model.json; the batch axis
and the canvas side are dynamic), validates the file with onnx.checker (full check, with
shape inference) and checks its inputs and outputs against model.json, and that the graph
has no BatchNormalization node (veletas export folds each batch norm into its convolution,
as the native inference path does); prints the graph's operators by count. Default output:
DIR/model.onnx.

--reference CASE.json OUT.json: runs the TorchScript module (LibTorch) on the inputs of
CASE.json ({"batches": [{"shape": [B, planes, M, M], "input": [flat floats]}, ...]}) and
writes its outputs to OUT.json ({"batches": [{"policy_logits": [...], "value": [...],
"aux_logits": [...]}]}, flat, in the order of model.json's outputs) for comparison with an
ONNX runtime (scripts/onnx_check.mjs does that with onnxruntime-node).

Needs Debian's python3-torch (1.13) and python3-onnx (1.12). Run by a Python without them
(another python3 first in PATH, a virtual environment), it runs itself again with
/usr/bin/python3 when that one has them, else says which package is missing.
Exit status: 0 on success, 1 on a failed check or a missing dependency, 2 on bad input.
"""
import argparse
import importlib.util
import json
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"
NEEDED = (("torch", "python3-torch"), ("onnx", "python3-onnx"))


def missing_modules():
    return [(m, p) for m, p in NEEDED if importlib.util.find_spec(m) is None]


def ensure_dependencies():
    """Runs the script again with Debian's Python when this one lacks torch or onnx."""
    missing = missing_modules()
    if not missing:
        return
    here = os.path.realpath(sys.executable or "")
    if here != os.path.realpath(SYSTEM_PYTHON) and os.access(SYSTEM_PYTHON, os.X_OK) and \
            os.environ.get("VELETAS_EXPORT_ONNX_REEXEC") != "1":
        os.environ["VELETAS_EXPORT_ONNX_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    names = ", ".join("%s (Debian: %s)" % (m, p) for m, p in missing)
    sys.stderr.write("export_onnx: %s has no %s: install with apt-get install %s\n" %
                     (sys.executable, names, " ".join(p for _, p in missing)))
    sys.exit(1)


if __name__ == "__main__":  # (tests/model/check_export.py imports the functions)
    ensure_dependencies()

import torch  # noqa: E402  (after the dependency check)


def load_description(export_dir):
    path = os.path.join(export_dir, "model.json")
    try:
        with open(path) as f:
            description = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit("export_onnx: %s: %s" % (path, e))
    try:
        input_name = description["input"]["name"]
        output_names = [o["name"] for o in description["outputs"]]
        planes = len(description["input"]["planes"])
        size = int(description["size"])
    except (KeyError, TypeError, ValueError) as e:
        raise SystemExit("export_onnx: %s: missing or malformed field %s" % (path, e))
    return input_name, output_names, planes, size


def export(module, path, input_name, output_names, planes, size, opset):
    example = torch.zeros(2, planes, size, size)
    axes = {input_name: {0: "batch", 2: "canvas", 3: "canvas"}}
    # policy_logits [B, M*M+1], value [B], aux_logits [B, 3, M, M] (model.json "outputs").
    dynamic = [{0: "batch", 1: "actions"}, {0: "batch"}, {0: "batch", 2: "canvas", 3: "canvas"}]
    for name, d in zip(output_names, dynamic):
        axes[name] = d
    tmp = path + ".tmp.%d" % os.getpid()
    with torch.no_grad():
        torch.onnx.export(module, (example,), tmp, input_names=[input_name],
                          output_names=output_names, dynamic_axes=axes, opset_version=opset)
    os.replace(tmp, path)


def check(path, input_name, output_names, planes):
    import onnx

    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    inputs = [i.name for i in model.graph.input]
    outputs = [o.name for o in model.graph.output]
    if inputs != [input_name]:
        return "inputs are %s, model.json says %s" % (inputs, [input_name])
    if outputs != output_names:
        return "outputs are %s, model.json says %s" % (outputs, output_names)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    if len(dims) != 4 or dims[1].dim_value != planes or not dims[0].dim_param:
        return "input shape is %s, expected [batch, %d, canvas, canvas]" % (
            [d.dim_param or d.dim_value for d in dims], planes)
    bn = sum(1 for n in model.graph.node if n.op_type == "BatchNormalization")
    if bn:
        return ("the graph has %d BatchNormalization node(s): model.pt is from a veletas that "
                "did not fold batch norm; export it again with veletas export" % bn)
    return None


def op_counts(path):
    """"Conv 13, Relu 13, ...": the graph's operators by count, most frequent first."""
    import collections

    import onnx

    counts = collections.Counter(n.op_type for n in onnx.load(path).graph.node)
    return ", ".join("%s %d" % (op, c) for op, c in sorted(counts.items(),
                                                           key=lambda kv: (-kv[1], kv[0])))


def reference(module, case_path, out_path):
    with open(case_path) as f:
        case = json.load(f)
    result = {"batches": []}
    for batch in case["batches"]:
        x = torch.tensor(batch["input"], dtype=torch.float32).reshape(batch["shape"])
        with torch.no_grad():
            policy, value, aux = module(x)
        result["batches"].append({"policy_logits": policy.flatten().tolist(),
                                  "value": value.flatten().tolist(),
                                  "aux_logits": aux.flatten().tolist()})
    tmp = out_path + ".tmp.%d" % os.getpid()
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, out_path)
    return len(result["batches"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", help="directory written by veletas export")
    parser.add_argument("--out", help="ONNX file to write (default DIR/model.onnx)")
    parser.add_argument("--opset", type=int, default=17, help="ONNX opset (default 17)")
    parser.add_argument("--reference", nargs=2, metavar=("CASE", "OUT"),
                        help="write the TorchScript outputs for the inputs of CASE to OUT")
    args = parser.parse_args()
    model_pt = os.path.join(args.dir, "model.pt")
    if not os.path.isfile(model_pt):
        print("export_onnx: %s: no such file (run veletas export first)" % model_pt,
              file=sys.stderr)
        return 2
    input_name, output_names, planes, size = load_description(args.dir)
    module = torch.jit.load(model_pt)
    module.eval()
    out = args.out or os.path.join(args.dir, "model.onnx")
    export(module, out, input_name, output_names, planes, size, args.opset)
    problem = check(out, input_name, output_names, planes)
    if problem:
        print("export_onnx: %s: %s" % (out, problem), file=sys.stderr)
        return 1
    print("wrote %s (opset %d, input %s [batch, %d, canvas, canvas], outputs %s); "
          "onnx.checker: ok" % (out, args.opset, input_name, planes, ", ".join(output_names)))
    print("graph (batch norm folded by veletas export): %s" % op_counts(out))
    if args.reference:
        n = reference(module, args.reference[0], args.reference[1])
        print("wrote TorchScript outputs for %d batch(es) to %s" % (n, args.reference[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
