#!/usr/bin/env python3
"""The dashboard's layering and size check: share/www/js follows js-layers.txt.

Usage: check_js_layering.py [--js DIR] [--table FILE] [--max-lines N]

Reads every static `import ... from '...'`, `export ... from '...'`, bare `import '...'`
and dynamic `import('...')` in DIR/**/*.js (vendor/ excluded: it is not ours) and fails
  - on a file whose module has no row in the table (a row names a module, "api" for
    api.js, or a folder, "views/market" for every file below it; the longest row wins),
  - on an import whose target row is not reachable from the importer's row (a back-edge,
    or an edge nobody decided on; the table is closed transitively like layers.txt),
  - on an import cycle between files (dynamic imports count: a page that imports the
    shell which lazily imports the page is a circle, whatever the loader does),
  - on a function longer than --max-lines lines (60): the dashboard's pages are small
    controllers composing named views, as the daemon's classes are small.
It prints the figures either way. Exit 0 when all holds, 1 otherwise. The JavaScript is
read by a small tokenizer (strings, template literals, comments, regular expressions),
enough for the plain ES modules of the dashboard; it is no full parser.
"""

import argparse
import os
import re
import sys

# The table's format and its closure are the daemon's (tools/layering/layers.txt).
from check_layering import closure, read_table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
KEYWORDS_BEFORE_REGEX = {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
                         "throw", "case", "do", "else", "yield", "await"}
NOT_METHODS = {"if", "for", "while", "switch", "catch", "function", "with", "return", "typeof"}


def row_of(module, table):
    """The row a module ("views/market/table") falls under: itself, else its nearest folder."""
    parts = module.split("/")
    for n in range(len(parts), 0, -1):
        candidate = "/".join(parts[:n])
        if candidate in table:
            return candidate
    return None


class Token:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line


def tokenize(text):
    """Tokens of kinds 'name', 'string', 'template', 'regex', 'num', 'punct'.

    A template literal with ${...} is one 'template' token; its expressions are tokenized
    recursively and spliced in after it, so functions inside them are still seen."""
    tokens = []
    i, line, n = 0, 1, len(text)

    def regex_allowed():
        if not tokens:
            return True
        last = tokens[-1]
        if last.kind == "name":
            return last.text in KEYWORDS_BEFORE_REGEX
        if last.kind in ("num", "string", "template", "regex"):
            return False
        return last.text not in (")", "]", "}")

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r":
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
        elif c in "'\"":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            tokens.append(Token("string", text[i + 1:j], line))
            i = j + 1
        elif c == "`":
            start_line, j, inner = line, i + 1, []
            while j < n and text[j] != "`":
                if text[j] == "\\":
                    j += 2
                    continue
                if text.startswith("${", j):
                    depth, k = 1, j + 2
                    while k < n and depth:
                        if text[k] == "{":
                            depth += 1
                        elif text[k] == "}":
                            depth -= 1
                        elif text[k] == "`":  # a nested template: skip it whole
                            k += 1
                            while k < n and text[k] != "`":
                                k += 2 if text[k] == "\\" else 1
                        k += 1
                    for t in tokenize(text[j + 2:k - 1]):
                        t.line += line + text.count("\n", i, j) - 1
                        inner.append(t)
                    j = k
                    continue
                j += 1
            line += text.count("\n", i, j)
            tokens.append(Token("template", "", start_line))
            tokens.extend(inner)
            i = j + 1
        elif c == "/" and regex_allowed():
            j, in_class = i + 1, False
            while j < n and (in_class or text[j] != "/") and text[j] != "\n":
                if text[j] == "\\":
                    j += 1
                elif text[j] == "[":
                    in_class = True
                elif text[j] == "]":
                    in_class = False
                j += 1
            j += 1
            while j < n and text[j].isalpha():
                j += 1
            tokens.append(Token("regex", text[i:j], line))
            i = j
        elif c.isalpha() or c in "_$":
            m = re.compile(r"[\w$]+").match(text, i)
            tokens.append(Token("name", m.group(0), line))
            i = m.end()
        elif c.isdigit():
            m = re.compile(r"[\w.]+").match(text, i)
            tokens.append(Token("num", m.group(0), line))
            i = m.end()
        elif text.startswith("=>", i) or text.startswith("...", i) or text.startswith("?.", i):
            size = 3 if text.startswith("...", i) else 2
            tokens.append(Token("punct", text[i:i + size], line))
            i += size
        else:
            tokens.append(Token("punct", c, line))
            i += 1
    return tokens


def imports(tokens):
    """(specifier, dynamic) of every import/export-from in the token stream."""
    found = []
    for k, t in enumerate(tokens):
        if t.kind != "name" or k + 1 >= len(tokens):
            continue
        nxt = tokens[k + 1]
        if t.text == "from" and nxt.kind == "string":
            found.append((nxt.text, False))
        elif t.text == "import" and nxt.kind == "string":
            found.append((nxt.text, False))
        elif (t.text == "import" and nxt.text == "(" and k + 2 < len(tokens)
              and tokens[k + 2].kind == "string"):
            found.append((tokens[k + 2].text, True))
    return found


def matching(tokens, k):
    """Index of the bracket closing the one at k."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    for j in range(k, len(tokens)):
        text = tokens[j].text if tokens[j].kind == "punct" else None
        if text in pairs:
            stack.append(pairs[text])
        elif text in (")", "]", "}"):
            stack.pop()
            if not stack:
                return j
    return len(tokens) - 1


def expression_end(tokens, k):
    """Index of the last token of the expression starting at k (an arrow's body)."""
    depth, j = 0, k
    while j < len(tokens):
        text = tokens[j].text if tokens[j].kind == "punct" else None
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            if depth == 0:
                return j - 1
            depth -= 1
        elif text in (",", ";") and depth == 0:
            return j - 1
        j += 1
    return len(tokens) - 1


def functions(tokens):
    """(name, first line, last line) of every function, arrow and method."""
    found = []
    for k, t in enumerate(tokens):
        if t.kind == "name" and t.text == "function":
            j = k + 1
            name = "function"
            while j < len(tokens) and tokens[j].text != "(":
                if tokens[j].kind == "name":
                    name = tokens[j].text
                j += 1
            close = matching(tokens, j)
            if close + 1 < len(tokens) and tokens[close + 1].text == "{":
                found.append((name, t.line, tokens[matching(tokens, close + 1)].line))
        elif t.kind == "punct" and t.text == "=>":
            name = arrow_name(tokens, k)
            if k + 1 < len(tokens) and tokens[k + 1].text == "{":
                end = matching(tokens, k + 1)
            else:
                end = expression_end(tokens, k + 1)
            found.append((name, t.line, tokens[end].line))
        elif (t.kind == "name" and t.text not in NOT_METHODS and k + 1 < len(tokens)
              and tokens[k + 1].text == "(" and k > 0 and tokens[k - 1].kind == "punct"
              and tokens[k - 1].text in ("{", "}", ";", ",")):
            close = matching(tokens, k + 1)
            if close + 1 < len(tokens) and tokens[close + 1].text == "{":
                found.append((t.text, t.line, tokens[matching(tokens, close + 1)].line))
    return found


def arrow_name(tokens, k):
    """The name an arrow is bound to (`const load = async () =>`, `onclick: () =>`)."""
    j = k - 1
    if j >= 0 and tokens[j].text == ")":
        depth = 0
        while j >= 0:
            if tokens[j].text == ")":
                depth += 1
            elif tokens[j].text == "(":
                depth -= 1
                if depth == 0:
                    break
            j -= 1
    j -= 1  # the parameter list or single parameter
    if j >= 0 and tokens[j].text == "async":
        j -= 1
    if j >= 1 and tokens[j].text in ("=", ":") and tokens[j - 1].kind in ("name", "string"):
        return tokens[j - 1].text
    return "(arrow)"


def module_files(js_dir):
    for root, dirs, files in os.walk(js_dir):
        dirs[:] = sorted(d for d in dirs if d != "vendor")
        for name in sorted(files):
            if name.endswith(".js"):
                path = os.path.join(root, name)
                yield os.path.relpath(path, js_dir).replace(os.sep, "/")[:-3]


def cycles(graph):
    """The strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, result, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                result.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--js", default=os.path.join(REPO, "share", "www", "js"))
    parser.add_argument("--table", default=os.path.join(HERE, "js-layers.txt"))
    parser.add_argument("--max-lines", type=int, default=60)
    args = parser.parse_args()

    table = read_table(args.table)
    reach = closure(table)
    problems, graph, total_lines, longest, over = [], {}, 0, None, []
    modules = list(module_files(args.js))
    for module in modules:
        with open(os.path.join(args.js, module + ".js"), encoding="utf-8") as f:
            text = f.read()
        total_lines += text.count("\n")
        tokens = tokenize(text)
        row = row_of(module, table)
        if row is None:
            problems.append("%s.js: no row in the table" % module)
        graph[module] = set()
        for spec, dynamic in imports(tokens):
            if not spec.startswith("."):
                problems.append("%s.js: imports %s, not a relative module path" % (module, spec))
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(module), spec)).replace(os.sep, "/")
            if not target.endswith(".js") or target.startswith(".."):
                problems.append("%s.js: imports %s, outside js/ or not a .js file" % (module, spec))
                continue
            target = target[:-3]
            if target not in modules:
                problems.append("%s.js: imports %s, which does not exist" % (module, spec))
                continue
            graph[module].add(target)
            target_row = row_of(target, table)
            if row and target_row and target_row not in reach[row]:
                problems.append("%s.js (%s) imports %s.js (%s)%s: not allowed by the table"
                                % (module, row, target, target_row, " dynamically" if dynamic else ""))
        for name, first, last in functions(tokens):
            size = last - first + 1
            if longest is None or size > longest[0]:
                longest = (size, name, module, first)
            if size > args.max_lines:
                over.append("%s.js:%d: %s is %d lines (limit %d)" % (module, first, name, size, args.max_lines))

    circles = cycles(graph)
    for component in circles:
        problems.append("import cycle: %s" % " <-> ".join(m + ".js" for m in component))
    back_edges = sum(1 for p in problems if "not allowed by the table" in p)
    in_circle = len({m for component in circles for m in component})
    edges = sum(len(v) for v in graph.values())
    print("js layering: %d files, %d lines, %d rows, %d imports; %d files in import cycles, "
          "%d back-edges" % (len(modules), total_lines, len(table), edges, in_circle, back_edges))
    if longest:
        print("js functions: longest %d lines (%s in %s.js:%d); %d over %d lines"
              % (longest[0], longest[1], longest[2], longest[3], len(over), args.max_lines))
    for problem in problems + over:
        print(problem)
    if problems or over:
        print("js layering: %d problem(s); see %s" % (len(problems) + len(over), args.table))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
