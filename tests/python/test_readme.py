"""The README is a newcomer's guide: small, the two commands on its first screen, short sentences,
and every link it or the manual gives leads to a file of the repository.

Sentence length is measured on prose only: code blocks, tables, headings and images are left out,
each list item and paragraph is joined into one line, and sentences end at '.', '!' or '?'
followed by a space or the end of the paragraph. Words are runs of non-space characters."""

import os
import re
import statistics

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
README = os.path.join(ROOT, "README.md")
MAX_BYTES = 12 * 1024
FIRST_SCREEN_LINES = 40


def prose_blocks(text):
    """Paragraphs and list items of a Markdown text, each joined into one line."""
    blocks, current, in_code = [], [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        skipped = in_code or line.startswith(("#", "|", "![")) or not line.strip()
        starts_item = re.match(r"^\s*[-*] ", line) is not None
        if (skipped or starts_item) and current:
            blocks.append(" ".join(current))
            current = []
        if not skipped:
            current.append(re.sub(r"^\s*[-*] ", "", line).strip())
    if current:
        blocks.append(" ".join(current))
    return blocks


def sentences(text):
    found = []
    for block in prose_blocks(text):
        found += [s for s in re.split(r"(?<=[.!?])\s+", block) if s.strip()]
    return found


def word_count(sentence):
    return len(sentence.split())


def test_sentence_splitter_counts_what_it_should():
    text = "# Title\n\nOne two three. Four five?\n\n```\nnot prose at all here.\n```\n- an item.\n"
    assert [word_count(s) for s in sentences(text)] == [3, 2, 2]


def test_readme_is_small():
    size = os.path.getsize(README)
    assert size <= MAX_BYTES, f"README.md is {size} bytes; the manual belongs in docs/"


def test_the_two_commands_are_on_the_first_screen():
    with open(README, encoding="utf-8") as f:
        first_screen = "".join(f.readlines()[:FIRST_SCREEN_LINES])
    assert "ci/quickstart" in first_screen
    assert "ci/test" in first_screen


def test_readme_sentences_are_short():
    with open(README, encoding="utf-8") as f:
        lengths = [word_count(s) for s in sentences(f.read())]
    assert len(lengths) >= 20
    assert statistics.median(lengths) <= 20, f"median sentence {statistics.median(lengths)} words"
    assert max(lengths) <= 25, f"longest sentence {max(lengths)} words"


def relative_links(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if not re.match(r"^[a-z]+:", target) and not target.startswith("#"):
            yield target.split("#", 1)[0]


def test_links_of_the_readme_and_the_manual_lead_to_files():
    pages = [README] + [
        os.path.join(ROOT, "docs", name)
        for name in sorted(os.listdir(os.path.join(ROOT, "docs")))
        if name.endswith(".md")
    ]
    broken = []
    for page in pages:
        for target in relative_links(page):
            if not os.path.exists(os.path.join(os.path.dirname(page), target)):
                broken.append(f"{os.path.relpath(page, ROOT)} -> {target}")
    assert not broken, broken
