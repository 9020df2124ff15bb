"""The command line needs only its declared dependencies: typer (which carries its own click)."""

from __future__ import annotations

import subprocess
import sys


def test_the_command_line_starts_without_the_click_package():
    # typer >= 0.26 vendors click, so ``pip install yarnlog`` does not install the click package.
    code = "import sys; sys.modules['click'] = None; import yarnlog.cli.main"
    subprocess.run([sys.executable, "-c", code], check=True)
