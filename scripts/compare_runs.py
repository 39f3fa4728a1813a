#!/usr/bin/env python3
"""compare_runs.py A B: whether two `veletas pipeline` run directories of the same config,
run at the same path (the checkpoints record the sample files' absolute paths), hold the same
run. Byte for byte except for what records time or addresses: the .lock files (a pid), the
timings in state.json, metrics.jsonl (samples_per_second, time), match records (started,
finished), the checkpoints' training metadata (metrics_offset: the byte length of
metrics.jsonl, whose rates vary; input_fingerprint) and rates, durations and time shares in
logs/pipeline.log. Used to check that a refactoring keeps the pipeline's output (issue 26):
  veletas pipeline --config configs/tiny.yaml --run run && mv run a   (old binary)
  veletas pipeline --config configs/tiny.yaml --run run && mv run b   (new binary)
  python3 scripts/compare_runs.py a b"""
import io, json, os, re, sys, zipfile


a, b = sys.argv[1], sys.argv[2]
def files(root):
    out = []
    for d, _, fs in os.walk(root):
        for f in fs:
            out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)

def ckpt(data):
    # The 32-byte header (payload length, checksum) is skipped; the metadata without
    # metrics_offset and the network's tensors must be equal; the optimizer state (a
    # torch::save zip whose tensors are numbered in an order, and named after addresses, that
    # vary from run to run, main against main included) must hold the same tensors and code.
    start = data.find(b'PK\x03\x04'); end = data.rfind(b'PK\x05\x06')
    # (the 8 bytes before the zip are its length)
    # (input_fingerprint: the checksum of the input checkpoint, whose optimizer bytes vary)
    head = re.sub(rb'\\"metrics_offset\\":\d+', b'', data[32:start - 8])
    head = re.sub(rb'\\"input_fingerprint\\":\\"[0-9a-f]+\\"', b'', head)
    z = zipfile.ZipFile(io.BytesIO(data[start:end + 22]))
    blobs = sorted(z.read(i) for i in z.infolist() if '/data/' in i.filename)
    # (the optimizer state's module names are parameter addresses: 0x5566d5e3ad10)
    rest = sorted((i.filename, re.sub(rb'0x[0-9a-f]+', b'0x', z.read(i))) for i in z.infolist()
                  if '/data/' not in i.filename and not i.filename.endswith('data.pkl'))
    return head, blobs, rest, data[end + 22:]

def state(text):
    j = json.loads(text)
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if not k.endswith('_seconds')}
        if isinstance(o, list):
            return [strip(v) for v in o]
        return o
    return json.dumps(strip(j), sort_keys=True)

def metrics(text):
    rows = []
    for line in text.splitlines():
        j = json.loads(line)
        j.pop('samples_per_second', None); j.pop('time', None)
        rows.append(json.dumps(j, sort_keys=True))
    return rows

def match(text):
    j = json.loads(text)
    j.pop('started', None); j.pop('finished', None)
    return json.dumps(j, sort_keys=True)

def log(text):
    t = re.sub(r'\d+(\.\d+)? (evals/s|samples/s)', 'R', text)
    t = re.sub(r'\b(\d+h)?(\d+m)?\d+s\b', 'T', t)
    t = re.sub(r'\d+(\.\d+)? CPU-minutes', 'C', t)
    t = re.sub(r'\d+% (learning|\()', r'P \1', t)
    t = re.sub(r'(self-play|training|gate|ladder) \d+%', r'\1 P', t)
    return t

fa, fb = files(a), files(b)
ok = True
if fa != fb:
    print('file lists differ:', set(fa) ^ set(fb)); ok = False
exact = normalized = 0
for f in fa:
    if f not in fb or f.endswith('.lock') or f.endswith('.png'):
        continue
    da = open(os.path.join(a, f), 'rb').read(); db = open(os.path.join(b, f), 'rb').read()
    if da == db:
        exact += 1; continue
    if f.endswith('.ckpt'): same = ckpt(da) == ckpt(db)
    elif f == 'state.json': same = state(da) == state(db)
    elif f.endswith('metrics.jsonl'): same = metrics(da.decode()) == metrics(db.decode())
    elif f.startswith('matches/') and f.endswith('.json'): same = match(da) == match(db)
    elif f.endswith('pipeline.log'): same = log(da.decode()) == log(db.decode())
    else: same = False
    if same: normalized += 1
    else:
        print('DIFFERS:', f); ok = False
print(f'{len(fa)} files: {exact} byte-identical, {normalized} identical after masking times'
      f' (.lock and .png skipped); {"SAME" if ok else "DIFFERENT"}')
sys.exit(0 if ok else 1)
