#!/usr/bin/env python3
"""Checks docs/ARCHITECTURE.md's layer table against the build's link lists.

Usage: check_architecture.py ARCHITECTURE.md BUILD/layer_links.txt [--with-torch ON|OFF]

layer_links.txt is written by the root CMakeLists.txt at configure time: one line
`target folder/: linked targets of ours`. The table's rows are `| `veletas_x` | `folder/` | links |
...` with links written without the `veletas_` prefix (`rules, util`, or `-`). Fails (exit 1,
naming the row) when
  - a library target of the build has no row, or a row names a target the build lacks
    (rows whose last column says `yes` or `built with Torch` may be absent from a build
    without Torch);
  - a row's links differ from what the target links;
  - a target links a target of a later row (the table is in dependency order: layers depend
    only downwards), or its row's folder is not where the target's sources are.
"""
import re
import sys


def read_links(path):
    links = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.partition(":")
        target, folder = head.split()
        links[target] = (folder, set(rest.split()))
    return links


def read_table(path):
    rows = []
    row_re = re.compile(r"^\|\s*`(veletas_\w+)`\s*\|\s*`([\w/]+)`\s*\|([^|]*)\|.*\|([^|]*)\|\s*$")
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        m = row_re.match(line.strip())
        if not m:
            continue
        target, folder, links, torch = m.groups()
        names = [n.strip().strip("`") for n in links.split(",")]
        linked = {"veletas_" + n for n in names if n and n != "-"}
        rows.append((number, target, folder, linked, torch.strip().lower()))
    return rows


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    doc, links_path = argv[1], argv[2]
    with_torch = not (len(argv) >= 5 and argv[3] == "--with-torch" and argv[4] == "OFF")
    links = read_links(links_path)
    rows = read_table(doc)
    errors = []
    if not rows:
        errors.append(f"{doc}: no layer table rows (| `veletas_x` | `folder/` | links | ...)")
    seen = {}
    for number, target, folder, linked, torch in rows:
        where = f"{doc}:{number}: {target}"
        if target in seen:
            errors.append(f"{where}: listed twice (first on line {seen[target]})")
            continue
        seen[target] = number
        if target not in links:
            if with_torch or not (torch.startswith("yes") or "with torch" in torch):
                errors.append(f"{where}: no such library target in the build")
            continue
        built_folder, built_links = links[target]
        if folder != built_folder:
            errors.append(f"{where}: the table says folder {folder}, the build: {built_folder}")
        if linked != built_links:
            missing = sorted(n[8:] for n in built_links - linked)
            extra = sorted(n[8:] for n in linked - built_links)
            errors.append(f"{where}: the table says it links {sorted(n[8:] for n in linked)}, "
                          f"the build: missing {missing}, not linked {extra}")
        later = [n for n in built_links if n in links and n not in seen and n != target]
        if later:
            errors.append(f"{where}: links {sorted(later)}, which the table lists later "
                          f"(the table must be in dependency order)")
    for target in sorted(set(links) - set(seen)):
        errors.append(f"{doc}: the build's target {target} has no row in the layer table")
    for e in errors:
        print(e, file=sys.stderr)
    if not errors:
        print(f"{doc}: {len(rows)} rows agree with {links_path}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
