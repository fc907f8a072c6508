#!/usr/bin/env python3
"""Check the links of every Markdown file in the repository, offline.

Usage (from anywhere): python3 tools/check_links.py

- A relative link must name a file or folder that exists, and its anchor
  (`#...`) a heading of that Markdown file.
- A link to one of this crate's guide pages on docs.rs
  (https://docs.rs/xla-layout/latest/xla_layout/guide/NAME/index.html#a)
  must name a page of `src/lib.rs`'s `guide` module, and its anchor a
  heading of the page's file (docs/NAME.md, CHANGELOG.md for `changelog`).
- README.md and the guide pages are also rendered on docs.rs and crates.io,
  where relative links lead nowhere: they may have none.
- Other web links are not followed (CI is offline).

Anchors are made from headings as GitHub and rustdoc both make them:
lower case, spaces to `-`, other punctuation dropped, a repeat given `-1`,
`-2`, ... Prints each broken link as `file:line: link: why` and exits 1 if
there is any.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_DIRS = {".git", "target", "node_modules"}
GUIDE_URL = "https://docs.rs/xla-layout/latest/xla_layout/"
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(\S+)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def markdown_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("target"))
        for name in sorted(filenames):
            if name.endswith(".md"):
                yield os.path.join(dirpath, name)


def slug(heading):
    text = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text
    out = []
    for c in text.strip().lower():
        if c.isalnum() or c in "-_":
            out.append(c)
        elif c.isspace():
            out.append("-")
    return "".join(out)


def lines_outside_code(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif line.strip().startswith(fence) and line.strip().strip(fence[0]) == "":
                fence = None
            continue
        if fence is None:
            yield n, line


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen = {}
        found = set()
        with open(path, encoding="utf-8") as f:
            for _, line in lines_outside_code(f.read()):
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if not m:
                    continue
                base = slug(m.group(1))
                k = seen.get(base, 0)
                found.add(base if k == 0 else f"{base}-{k}")
                seen[base] = k + 1
                # Explicit `<a id="...">` anchors count too.
            for m in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", open(path, encoding="utf-8").read()):
                found.add(m.group(1))
        _anchors[path] = found
    return _anchors[path]


def guide_pages():
    """Module name -> file, from `src/lib.rs`'s `guide` module."""
    lib = open(os.path.join(ROOT, "src", "lib.rs"), encoding="utf-8").read()
    pages = {}
    for m in re.finditer(r'#\[doc = include_str!\("\.\./([^"]+)"\)\]\s*pub mod (\w+)', lib):
        pages[m.group(2)] = os.path.join(ROOT, m.group(1))
    return pages


def main():
    pages = guide_pages()
    if not pages:
        sys.exit("check_links: no guide pages found in src/lib.rs")
    rendered = {os.path.join(ROOT, "README.md")} | set(pages.values())
    rendered.add(os.path.join(ROOT, "docs", "README.md"))  # the `guide` module's own page
    problems = []
    count = 0
    for path in markdown_files():
        rel = os.path.relpath(path, ROOT)
        text = open(path, encoding="utf-8").read()
        for n, line in lines_outside_code(text):
            line = CODE_SPAN.sub("", line)
            targets = [m.group(1) for m in LINK.finditer(line)]
            m = REF_DEF.match(line)
            if m:
                targets.append(m.group(1))
            for url in targets:
                count += 1
                why = check(path, url, pages, path in rendered)
                if why:
                    problems.append(f"{rel}:{n}: {url}: {why}")
    for p in problems:
        print(p)
    print(f"check_links: {count} links, {len(problems)} broken", file=sys.stderr)
    sys.exit(1 if problems else 0)


def check(path, url, pages, rendered):
    if url.startswith(GUIDE_URL):
        rest = url[len(GUIDE_URL):]
        target, _, anchor = rest.partition("#")
        if target in ("", "index.html"):
            return None if not anchor or anchor in anchors(os.path.join(ROOT, "README.md")) else "no such heading in README.md"
        m = re.fullmatch(r"guide/(?:(\w+)/)?index\.html", target)
        if not m:
            return None  # an API page: rustdoc's own `-D warnings` build checks those names
        if m.group(1) is None:
            file = os.path.join(ROOT, "docs", "README.md")
        elif m.group(1) in pages:
            file = pages[m.group(1)]
        else:
            return f"no guide page `{m.group(1)}` in src/lib.rs"
        if anchor and anchor not in anchors(file):
            return f"no such heading in {os.path.relpath(file, ROOT)}"
        return None
    if re.match(r"^[a-z][a-z0-9+.-]*:", url):
        return None  # another web page, mail: not followed
    target, _, anchor = url.partition("#")
    if rendered and target:
        return "a relative link in a page docs.rs and crates.io show: use a docs.rs link"
    file = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
    if not os.path.exists(file):
        return "no such file"
    if anchor and file.endswith(".md") and anchor not in anchors(file):
        return f"no such heading in {os.path.relpath(file, ROOT)}"
    return None


if __name__ == "__main__":
    main()
