"""The examples of docs/python.md run as they are and print what the page shows."""
import contextlib
import io
import os
import re

import pytest

from conftest import SOURCE

PAGE = os.path.join(SOURCE, "docs", "python.md")


def examples():
    """(code, printed text) of each python block followed by a "prints" text block."""
    with open(PAGE) as f:
        text = f.read()
    pattern = r"```python\n(.*?)```\n+(?:prints\n+```text\n(.*?)```)?"
    return [(code, shown) for code, shown in re.findall(pattern, text, re.S)]


@pytest.mark.parametrize("code,shown", examples())
def test_example_prints_what_the_page_shows(code, shown, monkeypatch):
    monkeypatch.chdir(SOURCE)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, PAGE, "exec"), {})
    assert out.getvalue() == shown
