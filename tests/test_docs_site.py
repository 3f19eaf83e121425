"""The documentation site: `mkdocs build --strict` succeeds without a single warning, and
the API reference has exactly one entry for every public name of engine and
engine.experiments.

MkDocs and mkdocstrings come with the dev extra (through the docs extra), so these tests
run wherever the suite does; a missing package fails them rather than skipping them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import engine
import engine.experiments

ROOT = Path(__file__).resolve().parent.parent
ANCHOR = re.compile(r'\bid="(engine\.[A-Za-z_][A-Za-z0-9_.]*)"')


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built into a temporary folder: (the build's log, the folder)."""
    folder = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean"]
        + ["--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return build, folder


def test_the_strict_build_succeeds_without_warnings(site):
    build, folder = site
    log = build.stdout + build.stderr
    assert build.returncode == 0, log
    warnings = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
    assert warnings == [], "\n".join(warnings)
    assert (folder / "index.html").is_file()


def test_every_public_name_has_one_entry_in_the_reference(site):
    _, folder = site
    anchors = Counter()
    for page in (folder / "reference").glob("*.html"):
        anchors.update(set(ANCHOR.findall(page.read_text(encoding="utf-8"))))
    missing, repeated = [], []
    for package in (engine, engine.experiments):
        for name in package.__all__:
            # An entry under the public path, or under the module that defines the name
            # (a function named like its own module, such as sweep, can only be the latter).
            paths = {f"{package.__name__}.{name}", f"{getattr(package, name).__module__}.{name}"}
            count = sum(anchors[path] for path in paths)
            (missing if count == 0 else repeated if count > 1 else []).append(name)
    assert missing == [] and repeated == [], (missing, repeated)
    # The functions' entries, not their modules'.
    assert anchors["engine.collide"] == anchors["engine.experiments.sweep"] == 0


def test_the_reference_shows_methods_and_examples(site):
    """Spot checks of one rendered page: a method's own entry, a doctest as a code block
    (not as nested quotes), and no reStructuredText role left as text."""
    _, folder = site
    page = (folder / "reference" / "world.html").read_text(encoding="utf-8")
    for name in (
        "engine.World.step",
        "engine.World.off",
        "engine.World.move_and_slide",
        "engine.Body.apply_force",
        "engine.Body.kind",
        "engine.Body.local_to_world",
    ):
        assert f'id="{name}"' in page
    assert "&gt;&gt;&gt; from engine import World" in page
    assert "<blockquote>" not in page
    for page in (folder / "reference").glob("*.html"):
        assert ":func:" not in page.read_text(encoding="utf-8"), page.name


def test_the_home_page_is_the_readme_with_working_links(site):
    _, folder = site
    home = (folder / "index.html").read_text(encoding="utf-8")
    assert "Ten lines" in home
    assert 'href="collision.html"' in home
    assert 'href="docs/' not in home
