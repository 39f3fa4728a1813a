// The Network menu: the networks the project ships (networks/NAME/, docs/USAGE.md), listed in
// networks.json beside the page (written by the build from each folder's card.json:
// web/networks.cmake) and loaded by URL, without a file dialog.

// The list at `url` ([] when the page was built without shipped networks: no file, or
// HTTP 404); throws an Error naming the URL for anything else.
export async function fetchNetworkList(url) {
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    throw new Error(`cannot fetch the shipped networks from ${url}: ${e.message}`);
  }
  if (r.status === 404) return [];
  if (!r.ok) throw new Error(`cannot fetch the shipped networks from ${url}: HTTP ${r.status}`);
  let list;
  try {
    list = JSON.parse(await r.text());
  } catch (e) {
    throw new Error(`${url}: not valid JSON (${e.message})`);
  }
  if (!list || !Array.isArray(list.networks)) {
    throw new Error(`${url}: expected {"networks": [...]} (written by web/networks.cmake)`);
  }
  return list.networks.filter((n) => n && typeof n.name === 'string' &&
                                     typeof n.rules === 'string' && Number.isInteger(n.size));
}

// The menu's text for a network: "standard-7x7: generation 30; uct:10000 180-20".
export function networkLabel(n) {
  const results = Array.isArray(n.results) ? n.results : [];
  const best = results.map((r) => `${r.opponent} ${r.wins}-${r.losses}`).join(', ');
  return `${n.name}: generation ${n.generation}${best ? `; ${best}` : ''}`;
}

// The URL of a network's folder (model.json + model.onnx) for the list at `listUrl`.
export function networkUrl(n, listUrl) {
  return new URL(`${encodeURIComponent(n.name)}/`, listUrl).href;
}

// The network of `rules` `size` in `list`, or undefined.
export function networkFor(list, rules, size) {
  return list.find((n) => n.rules === rules && n.size === size);
}
