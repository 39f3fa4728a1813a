// Runs an ONNX model written by scripts/export_onnx.py with onnxruntime-node and compares
// its outputs with reference outputs.
//
// usage: node scripts/onnx_check.mjs MODEL.onnx MODEL.json CASE.json REF.json [TOLERANCE]
//   CASE.json: {"batches": [{"shape": [B, planes, M, M], "input": [...],
//               "legal": [B * (M*M+1) zeros and ones],            (optional)
//               "evaluator": {"policy": [B * (M*M+1)], "value": [B]}}]}  (optional)
//   REF.json:  {"batches": [{"policy_logits": [...], "value": [...], "aux_logits": [...]}]}
//              (the TorchScript module's outputs: export_onnx.py --reference)
// For every batch: the raw outputs must match REF within TOLERANCE (default 1e-4); where
// "evaluator" is given (the C++ NetworkEvaluator's output: softmax over the legal actions and
// the value), the softmax of the ONNX policy logits over "legal" must match it too. The
// first batch is also run one position at a time (the batch axis is dynamic).
// Set ONNXRUNTIME_NODE to the onnxruntime-node package directory, or have it resolvable.
// Exit status: 0 when everything matches, 1 otherwise.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ort = require(process.env.ONNXRUNTIME_NODE || 'onnxruntime-node');

function maxDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; ++i) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

function legalSoftmax(logits, legal, batch, actions) {
  const out = new Float64Array(batch * actions);
  for (let b = 0; b < batch; ++b) {
    let max = -Infinity;
    for (let a = 0; a < actions; ++a) {
      if (legal[b * actions + a]) max = Math.max(max, logits[b * actions + a]);
    }
    let sum = 0;
    for (let a = 0; a < actions; ++a) {
      if (legal[b * actions + a]) sum += Math.exp(logits[b * actions + a] - max);
    }
    for (let a = 0; a < actions; ++a) {
      out[b * actions + a] = legal[b * actions + a] ? Math.exp(logits[b * actions + a] - max) / sum : 0;
    }
  }
  return out;
}

async function main() {
  const [modelPath, descriptionPath, casePath, refPath, tolText] = process.argv.slice(2);
  if (!refPath) {
    console.error('usage: node onnx_check.mjs MODEL.onnx MODEL.json CASE.json REF.json [TOL]');
    return 2;
  }
  const tolerance = tolText ? Number(tolText) : 1e-4;
  const description = JSON.parse(fs.readFileSync(descriptionPath, 'utf8'));
  const cases = JSON.parse(fs.readFileSync(casePath, 'utf8')).batches;
  const refs = JSON.parse(fs.readFileSync(refPath, 'utf8')).batches;
  const session = await ort.InferenceSession.create(modelPath);
  const inputName = description.input.name;
  const outputNames = description.outputs.map((o) => o.name);
  let failures = 0;
  const report = (what, diff) => {
    const ok = diff <= tolerance;
    if (!ok) ++failures;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}: max |difference| ${diff.toExponential(2)}`);
  };
  if (JSON.stringify(session.inputNames) !== JSON.stringify([inputName]) ||
      JSON.stringify(session.outputNames) !== JSON.stringify(outputNames)) {
    console.log(`FAIL names: ${session.inputNames} -> ${session.outputNames}, model.json says ` +
                `${inputName} -> ${outputNames}`);
    ++failures;
  }
  for (let i = 0; i < cases.length; ++i) {
    const c = cases[i];
    const [batch, planes, m] = c.shape;
    const x = new ort.Tensor('float32', Float32Array.from(c.input), c.shape);
    const out = await session.run({ [inputName]: x });
    const tag = `batch ${i} (${batch} positions, canvas ${m})`;
    for (const name of outputNames) report(`${tag} ${name}`, maxDiff(out[name].data, refs[i][name]));
    if (c.evaluator) {
      const actions = m * m + 1;
      const probs = legalSoftmax(out[outputNames[0]].data, c.legal, batch, actions);
      report(`${tag} legal softmax vs NetworkEvaluator`, maxDiff(probs, c.evaluator.policy));
      report(`${tag} value vs NetworkEvaluator`, maxDiff(out[outputNames[1]].data, c.evaluator.value));
    }
    if (i === 0) {
      // One position at a time: the batch axis is dynamic.
      const per = planes * m * m;
      let worst = 0;
      for (let b = 0; b < batch; ++b) {
        const one = new ort.Tensor('float32', Float32Array.from(c.input.slice(b * per, (b + 1) * per)),
                                   [1, planes, m, m]);
        const r = await session.run({ [inputName]: one });
        const v = r[outputNames[1]].data[0];
        worst = Math.max(worst, Math.abs(v - refs[i][outputNames[1]][b]));
        const actions = m * m + 1;
        worst = Math.max(worst, maxDiff(r[outputNames[0]].data,
                                        refs[i][outputNames[0]].slice(b * actions, (b + 1) * actions)));
      }
      report(`${tag} run one position at a time`, worst);
    }
  }
  console.log(failures === 0 ? `ok: onnxruntime-node ${ort.env.versions?.common ?? ''} matches`
                             : `${failures} comparison(s) failed`);
  return failures === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (e) => {
  console.error(e);
  process.exit(1);
});
