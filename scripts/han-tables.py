#!/usr/bin/env python3
"""Writes the tests' character tables under Tests/Fixtures/han/ (docs/TESTING.md, "Script tables").

- traditional-only.txt: every character of Big5 that GB2312 lacks, and every Big5 character that OpenCC's t2s
  changes (後, 乾: GB2312 holds them for names and old texts, mainland text writes 后, 干). Any of
  these in zh-Hans text is a Traditional (or Taiwan variant) form.
- simplified-only.txt: every character of GB2312 that Big5 lacks: a Simplified form that Traditional text never uses.
- t2s.txt: "T S" per line, each Big5 character that OpenCC's t2s turns into another single character: a
  character-by-character conversion, used to tell a pair written for mainland players from a converted zh-TW pair.

Needs Python's own codecs and the `opencc` package (PyPI).
Run from the repository root: python3 scripts/han-tables.py
"""
import os

def chars(encoding):
    found = set()
    for code in range(0x3400, 0xA000):
        ch = chr(code)
        try:
            ch.encode(encoding)
        except UnicodeEncodeError:
            continue
        found.add(ch)
    return found

def write(path, header, characters):
    ordered = sorted(characters)
    with open(path, "w", encoding="utf-8") as out:
        out.write(header)
        for start in range(0, len(ordered), 64):
            out.write("".join(ordered[start:start + 64]) + "\n")

# Characters t2s changes that mainland text still writes as they are: 哪吒, 蒜薹.
MAINLAND_STANDARD = set("吒薹")

here = os.path.join("Tests", "Fixtures", "han")
os.makedirs(here, exist_ok=True)
big5, gb2312 = chars("big5"), chars("gb2312")
import opencc
t2s = opencc.OpenCC("t2s").convert
write(os.path.join(here, "traditional-only.txt"),
      "# Characters of Big5 that GB2312 lacks or that t2s changes (scripts/han-tables.py). # starts a comment.\n",
      (big5 - gb2312) | {ch for ch in big5 if t2s(ch) != ch and ch not in MAINLAND_STANDARD})
write(os.path.join(here, "simplified-only.txt"),
      "# Characters of GB2312 that Big5 lacks (scripts/han-tables.py). # starts a comment.\n",
      gb2312 - big5)
with open(os.path.join(here, "t2s.txt"), "w", encoding="utf-8") as out:
    out.write("# Traditional character, space, its Simplified form, from OpenCC t2s (scripts/han-tables.py).\n")
    for ch in sorted(big5):
        simple = t2s(ch)
        if simple != ch and len(simple) == 1:
            out.write(f"{ch} {simple}\n")
