#!/usr/bin/env python3
"""Checks the prose of the README and the guides: no sentence over 60 words.

Code blocks, headings and table rows are not prose and are skipped; inline code counts as one word.
A sentence ends at '.', '!', '?', ':' or ';' followed by a space and a capital, a backtick, a quote,
a parenthesis or emphasis; a list item is a sentence of its own. Prints each long sentence with its
file and exits 1 when there is one. Usage: check-prose.py [FILE...] (default: README.md docs/*.md).
"""
import glob
import re
import sys

LIMIT = 60


def sentences(text):
    text = re.sub(r"^ *```.*?^ *```", "", text, flags=re.S | re.M)
    for paragraph in re.split(r"\n\s*\n", text):
        lines = [line for line in paragraph.split("\n") if line.strip() and not line.lstrip().startswith(("|", "#"))]
        for item in re.split(r"\n(?=\s*(?:[-*]|\d+\.)\s)", "\n".join(lines)):
            flat = " ".join(item.split())
            for sentence in re.split(r"(?<=[.!?:;])\s+(?=[A-Z`(\"*\[])", flat):
                if sentence:
                    yield len(re.sub(r"`[^`]*`", "CODE", sentence).split()), sentence


def main(paths):
    long = 0
    for path in paths:
        with open(path, encoding="utf-8") as file:
            for words, sentence in sentences(file.read()):
                if words > LIMIT:
                    long += 1
                    print(f"{path}: a sentence of {words} words (at most {LIMIT}); split it: {sentence[:100]}...")
    if long:
        return 1
    print(f"prose: {len(paths)} files, no sentence over {LIMIT} words")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["README.md"] + sorted(glob.glob("docs/*.md"))))
