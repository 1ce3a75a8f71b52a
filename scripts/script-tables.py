#!/usr/bin/env python3
"""Writes the tables of characters that belong to one Chinese script only, for the tests and for the bank's
language detection. Run from the repository root: python3 scripts/script-tables.py

The rule (also in docs/TESTING.md), over the CJK Unified Ideographs and Extension A:
- Traditional-only: in Big5 (Python's cp950 codec), not in GB2312, and OpenCC's t2s or tw2s turns it into another
  single character that is in GB2312 (們 -> 们, 裏 -> 里).
- Simplified-only: in GB2312, not in Big5, and OpenCC's s2t or s2tw turns it into another single character that is
  in Big5 (们 -> 們, 着 -> 著).
- Converted in both: in GB2312 and in Big5, yet t2s or tw2s turns it into another single GB2312 character (乾 -> 干,
  後 -> 后). Not wrong in either script, but with the Traditional-only table it is the character map that tells
  whether a Simplified pair is a plain conversion of a Traditional one.
The two script-only tables are disjoint by construction: one needs GB2312, the other excludes it.

Needs the `opencc` Python package (pip install opencc); the codecs are Python's own.
"""
import os
import sys

import opencc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Support", "Fixtures")
SWIFT = os.path.join(ROOT, "Sources", "SpyBank", "Formats", "ChineseScriptTables.swift")

to_simplified = [opencc.OpenCC(c).convert for c in ("t2s", "tw2s")]
to_traditional = [opencc.OpenCC(c).convert for c in ("s2t", "s2tw")]


def encodable(character, codec):
    try:
        character.encode(codec)
        return True
    except UnicodeEncodeError:
        return False


def gb2312(c):
    return encodable(c, "gb2312")


def big5(c):
    return encodable(c, "cp950")


def forms(character, converters, accept):
    """The other single characters the converters turn `character` into, that `accept` takes, in a fixed order."""
    found = []
    for convert in converters:
        other = convert(character)
        if len(other) == 1 and other != character and accept(other) and other not in found:
            found.append(other)
    return found


def main():
    ideographs = [chr(c) for c in list(range(0x3400, 0x4DC0)) + list(range(0x4E00, 0xA000))]
    traditional_only, simplified_only, both = [], [], []
    for c in ideographs:
        in_gb, in_big5 = gb2312(c), big5(c)
        if in_big5 and not in_gb:
            simplified = forms(c, to_simplified, gb2312)
            if simplified:
                traditional_only.append(c + "".join(simplified))
        elif in_gb and not in_big5:
            traditional = forms(c, to_traditional, big5)
            if traditional:
                simplified_only.append(c + "".join(traditional))
        elif in_gb and in_big5:
            simplified = forms(c, to_simplified, gb2312)
            if simplified:
                both.append(c + "".join(simplified))

    source = "scripts/script-tables.py (Python's GB2312 and cp950 codecs, OpenCC)"
    tables = [
        ("traditional-only.txt", traditional_only,
         "Traditional-only characters, one a line, each followed by its Simplified form(s)."),
        ("simplified-only.txt", simplified_only,
         "Simplified-only characters, one a line, each followed by its Traditional form(s)."),
        ("converted-in-both.txt", both,
         "Characters of both scripts that t2s still converts, one a line, each followed by its Simplified form(s)."),
    ]
    os.makedirs(FIXTURES, exist_ok=True)
    for name, lines, what in tables:
        with open(os.path.join(FIXTURES, name), "w", encoding="utf-8") as out:
            out.write(f"# {what}\n# Written by {source}; the rule is in docs/TESTING.md.\n")
            out.write("\n".join(lines) + "\n")

    def literal(name, lines):
        characters = "".join(line[0] for line in lines)
        rows = [characters[i:i + 50] for i in range(0, len(characters), 50)]
        body = "\n".join("        " + row for row in rows)
        return f'    static let {name} = """\n{body}\n        """\n'

    with open(SWIFT, "w", encoding="utf-8") as out:
        out.write(
            "// The characters of one Chinese script only, as scripts/script-tables.py writes them (the rule is in\n"
            "// docs/TESTING.md); the tests check these against their own copy. Regenerate, do not edit.\n"
            "extension ChineseScript {\n")
        out.write(literal("traditionalOnlyText", traditional_only))
        out.write("\n")
        out.write(literal("simplifiedOnlyText", simplified_only))
        out.write("}\n")
    print(f"{len(traditional_only)} Traditional-only, {len(simplified_only)} Simplified-only, "
          f"{len(both)} converted in both", file=sys.stderr)


main()
