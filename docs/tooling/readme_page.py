"""MkDocs hook: the project's README.md is the site's home page.

The README stays the one source of the front page. Its links into docs/ ("docs/world.md")
are made relative to the site's pages ("world.md") as it is read.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

README = Path(__file__).resolve().parents[2] / "README.md"
DOCS_LINK = re.compile(r"\]\(docs/")


def on_files(files, config):
    text = DOCS_LINK.sub("](", README.read_text(encoding="utf-8"))
    files.append(File.generated(config, "index.md", content=text))
    return files
