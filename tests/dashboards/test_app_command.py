"""`postgame app --lake DIR [--port N]`: starts the Streamlit server on the lake, read-only,
local, without usage statistics, and prints the address once the server answers."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from dashboards.data import LAKE_ENV
from pipeline.lake import Lake
from postgame.cli import build_parser
from postgame.commands import app
from postgame.commands.common import UserError


def test_the_command_is_registered_with_its_options() -> None:
    args = build_parser().parse_args(["app", "--lake", "somewhere", "--port", "8600"])
    assert args.func is app.run and args.lake == Path("somewhere") and args.port == 8600


def test_the_server_runs_the_app_quietly_and_locally() -> None:
    command = app.server_command(8600, "127.0.0.1")
    assert command[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert Path(command[4]) == app.APP and app.APP.is_file()
    settings = dict(zip(command[5::2], command[6::2]))
    assert settings["--server.port"] == "8600"
    assert settings["--server.address"] == "127.0.0.1"
    assert settings["--browser.gatherUsageStats"] == "false"
    assert settings["--client.showErrorDetails"] == "none"
    assert app.server_env(Path("/lake"))[LAKE_ENV] == "/lake"
    assert app.LAKE_ENV == LAKE_ENV


def test_a_taken_port_is_refused_and_the_default_steps_aside() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(UserError, match=f"port {port} is already in use"):
            app.choose_port(port, "127.0.0.1")
    with pytest.raises(UserError, match="between 1 and 65535"):
        app.choose_port(70000, "127.0.0.1")
    assert app.choose_port(None, "127.0.0.1") > 0


def test_postgame_app_serves_the_lake_and_prints_its_address(fixture_lake: Lake) -> None:
    port = app.choose_port(None, "127.0.0.1")
    server = subprocess.Popen(
        [sys.executable, "-m", "postgame.cli", "app", "--lake", str(fixture_lake.root),
         "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert line.startswith(f"postgame app: http://127.0.0.1:{port} ")
        assert str(Path(fixture_lake.root).resolve()) in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health") as answer:
            assert answer.read() == b"ok"
    finally:
        server.terminate()
        assert server.wait(timeout=20) is not None
    time.sleep(0.5)
    assert app.port_is_free(port, "127.0.0.1"), "the server outlived the command"
