"""Griffe extension: docstrings written for the terminal read well as Markdown.

The docstrings are read as Markdown, where a ``>>>`` line would render as nested quotes. A
run of lines that starts with ``>>>`` (its ``...`` continuations and expected output, up to
the next blank line) is wrapped in a fenced ``pycon`` block instead. A reStructuredText
role such as ``:func:`raycast``` becomes the code span it names.
"""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:func|class|meth|attr|mod|data|exc):`([^`]+)`")


def fence_doctests(text: str) -> str:
    lines = text.split("\n")
    out = []
    inside = False
    fenced = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            if out and out[-1].strip():
                out.append("")
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DocstringsAsMarkdown(griffe.Extension):
    """Fence the doctest examples and unwrap the roles of every docstring griffe loads."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is None:
            return
        text = ROLE.sub(r"`\1`", obj.docstring.value)
        if ">>>" in text:
            text = fence_doctests(text)
        obj.docstring.value = text
