// Loading a model exported by `veletas export` + scripts/export_onnx.py: model.json (the
// description) and model.onnx, from a URL or from local files, and checking that the
// description is a Veletas export this page can encode inputs for.

export const EXPORT_FORMAT = 'veletas-zero TorchScript export';
export const EXPORT_FORMAT_VERSIONS = [1];
export const OUTPUT_NAMES = ['policy_logits', 'value', 'aux_logits'];

// Checks a parsed model.json against the page's feature encoding (`info` from
// Core.info()). Returns '' or a message saying what is wrong, naming the file.
export function checkDescription(d, info, file = 'model.json') {
  if (d === null || typeof d !== 'object' || Array.isArray(d)) {
    return `${file} is not a Veletas export: it is not a JSON object`;
  }
  if (d.format !== EXPORT_FORMAT) {
    return `${file} is not a Veletas export: its "format" is ${JSON.stringify(d.format)}, ` +
           `expected "${EXPORT_FORMAT}" (files written by veletas export)`;
  }
  if (!EXPORT_FORMAT_VERSIONS.includes(d.export_format_version)) {
    return `${file}: export format version ${JSON.stringify(d.export_format_version)} is not ` +
           `supported by this page (it reads version ${EXPORT_FORMAT_VERSIONS.join(', ')})`;
  }
  const fv = d.architecture && d.architecture.feature_version;
  if (fv !== info.feature_version) {
    return `${file}: feature version ${JSON.stringify(fv)} is not supported: this page encodes ` +
           `positions with feature version ${info.feature_version} (export the model with the ` +
           `same version of Veletas Zero as the page)`;
  }
  if (!info.rules.includes(d.rules) || !info.sizes.includes(d.size)) {
    return `${file}: unsupported game ${JSON.stringify(d.rules)} ${JSON.stringify(d.size)}`;
  }
  const input = d.input || {};
  const planes = Array.isArray(input.planes) ? input.planes.map((p) => p && p.name) : null;
  if (!planes || JSON.stringify(planes) !== JSON.stringify(info.planes)) {
    return `${file}: the input planes differ from this page's encoding (expected ` +
           `${info.planes.length} planes: ${info.planes.join(', ')})`;
  }
  const outputs = Array.isArray(d.outputs) ? d.outputs.map((o) => o && o.name) : null;
  if (typeof input.name !== 'string' || JSON.stringify(outputs) !== JSON.stringify(OUTPUT_NAMES)) {
    return `${file}: expected an input name and the outputs ${OUTPUT_NAMES.join(', ')}`;
  }
  return '';
}

// Parses the text of model.json; throws an Error naming the file.
export function parseDescription(text, file = 'model.json') {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not a Veletas export: not valid JSON (${e.message})`);
  }
}

// The URLs of model.json and model.onnx for what the user typed: a directory written by
// veletas export (with or without a trailing slash), or the URL of its model.json or
// model.onnx.
export function modelUrls(text, base) {
  let t = text.trim();
  if (t.endsWith('model.json') || t.endsWith('model.onnx')) t = t.slice(0, -'model.json'.length);
  if (!t.endsWith('/')) t += '/';
  const dir = new URL(t, base);
  return { json: new URL('model.json', dir).href, onnx: new URL('model.onnx', dir).href };
}

async function fetchOk(url, what) {
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    throw new Error(`cannot fetch ${what} from ${url}: ${e.message}`);
  }
  if (!r.ok) throw new Error(`cannot fetch ${what} from ${url}: HTTP ${r.status} ${r.statusText}`);
  return r;
}

// {description, onnx: ArrayBuffer, name} from a URL; throws Error with a clear message.
export async function fetchModel(text, base, info) {
  const urls = modelUrls(text, base);
  const description = parseDescription(await (await fetchOk(urls.json, 'model.json')).text(),
                                       urls.json);
  const problem = checkDescription(description, info, urls.json);
  if (problem) throw new Error(problem);
  const onnx = await (await fetchOk(urls.onnx, 'model.onnx')).arrayBuffer();
  return { description, onnx, name: urls.json.replace(/model\.json$/, '') };
}

// The same from local files (a FileList or array holding model.json and model.onnx, e.g. the
// export directory's files).
export async function readModelFiles(files, info) {
  const list = Array.from(files);
  const json = list.find((f) => f.name.endsWith('.json'));
  const onnx = list.find((f) => f.name.endsWith('.onnx'));
  if (!json || !onnx) {
    throw new Error('choose both files of an export: model.json and model.onnx ' +
                    '(written by veletas export and scripts/export_onnx.py)');
  }
  const description = parseDescription(await json.text(), json.name);
  const problem = checkDescription(description, info, json.name);
  if (problem) throw new Error(problem);
  return { description, onnx: await onnx.arrayBuffer(), name: `${json.name} + ${onnx.name}` };
}
