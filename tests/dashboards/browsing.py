"""Driving the app in chromium: start `postgame app` on a lake, wait for a script run to end,
read the Replay page's step line. Shared by the browser tests (fixtures in conftest.py)."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from postgame.commands.app import choose_port

CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
IDLE_JS = ("() => document.querySelector('[data-testid=\"stApp\"]')"
           "?.getAttribute('data-test-script-state') === 'notRunning'")


def start_app(lake: Path) -> tuple[subprocess.Popen[str], str]:
    """`postgame app --lake LAKE --port N`; returns the server and the address it printed."""
    port = choose_port(None, "127.0.0.1")
    server = subprocess.Popen([sys.executable, "-m", "postgame.cli", "app", "--lake", str(lake),
                               "--port", str(port)], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline() if server.stdout else ""
    found = re.search(r"http://\S+", line)
    if not found:
        server.terminate()
        pytest.fail(f"postgame app printed no address: {line!r}")
    return server, found.group(0)


def stop(server: subprocess.Popen[str]) -> None:
    server.terminate()
    server.wait(timeout=20)


def idle(page: Any) -> None:
    """Wait for the script run a click started to finish."""
    time.sleep(0.3)
    page.wait_for_function(IDLE_JS, timeout=60_000)


def open_page(page: Any, url: str) -> float:
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"]')
    idle(page)
    return time.perf_counter() - started


def step_line(page: Any) -> str:
    return str(page.locator("p", has_text=re.compile(r"^Step \d+/\d+")).first.inner_text())


def step_of(page: Any) -> int:
    return int(re.match(r"Step (\d+)/", step_line(page)).group(1))  # type: ignore[union-attr]


def click(page: Any, name: str) -> None:
    """The button labelled `name` (a stepping button's label ends with its key: "Next →")."""
    page.get_by_role("button", name=re.compile(rf"^{re.escape(name)}( |$)")).first.click()
    idle(page)
