#!/usr/bin/env python3
"""Every file of daemon/<folder>/ declares its code in namespace skinpulse::<folder>.

The namespace says where a name lives (STYLE.md): `store::Database` is found in
daemon/store/. Sub-namespaces of a folder (`skinpulse::store::sqlite`) and the few
that are not folders (`skinpulse::log`, `skinpulse::time`, `skinpulse::http_wait` of
common/, `skinpulse::systemd` of app/) are allowed; a bare `namespace skinpulse {` and
another folder's namespace are not. daemon/main.cpp, outside any folder, is exempt.
Exit 0 when all holds, 1 with one line per offending declaration otherwise;
--count prints how many files declare a bare `namespace skinpulse {`.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DAEMON = ROOT / "daemon"
# Sub-namespaces of skinpulse that are not folders, and the folder they belong to.
NOT_FOLDERS = {"log": "common", "time": "common", "http_wait": "common", "systemd": "app"}
DECLARATION = re.compile(r"^\s*namespace\s+(skinpulse(?:::\w+)*)\s*\{", re.M)
# A block of another folder's namespace that only forward-declares its types
# (`namespace skinpulse::net { class HttpClient; }`) names, it does not declare.
FORWARD_ONLY = re.compile(r"^\s*(?:(?:class|struct)\s+\w+\s*;\s*|//.*)?$")


def forward_only(text, brace):
    """Whether the block opened at `brace` holds nothing but forward declarations."""
    end = text.find("}", brace)
    return end != -1 and all(FORWARD_ONLY.match(line) for line in text[brace + 1:end].splitlines())


def problems(root=DAEMON):
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h") or path.parent == root:
            continue
        folder = path.relative_to(root).parts[0]
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in DECLARATION.finditer(text):
            parts = match.group(1).split("::")
            owner = NOT_FOLDERS.get(parts[1], parts[1]) if len(parts) > 1 else None
            if owner != folder and not (owner is not None and forward_only(text, match.end() - 1)):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: namespace {match.group(1)} "
                             f"(expected skinpulse::{folder})")
    return found


def main(argv):
    found = problems()
    if "--count" in argv:
        bare = {p.split(":")[0] for p in found if " namespace skinpulse (" in p}
        print(f"files declaring a bare namespace skinpulse: {len(bare)}; "
              f"other problems: {len(found) - sum(' namespace skinpulse (' in p for p in found)}")
        return 0
    for line in found:
        print(line)
    if found:
        print(f"namespaces: {len(found)} problem(s); see {pathlib.Path(__file__).name}")
        return 1
    print("namespaces: every daemon folder declares skinpulse::<folder>")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
