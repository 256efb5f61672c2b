"""`postgame app`: the browser app on a lake (dashboards/app.py, run by Streamlit).

The lake travels to the app in the POSTGAME_LAKE variable, so every session of the server reads
the same lake; the app only reads it (DuckDB views over the files its manifest lists). The server
listens on 127.0.0.1 unless told otherwise, sends no usage statistics, watches no files, and
shows no tracebacks in the browser: they go to this terminal.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from postgame.commands.common import UserError, add_command, int_in

LAKE_ENV = "POSTGAME_LAKE"
DEFAULT_PORT = 8501
READY_TIMEOUT_S = 60.0
APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"

EXAMPLES = """\
examples:
  postgame app --lake out/lake                 # http://127.0.0.1:8501 (or a free port)
  postgame app --lake out/lake --port 8600
  postgame app --lake out/lake --address 0.0.0.0   # reachable from other machines

Pages: Replay (step through any match as a seat, a spectator or the organiser sees it),
Card stats, Matchups, Charges (table in force, history, movers, deck check), Export and Data.
An empty or missing lake opens on a page saying how to fill it (simulate, then ingest).
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "app", help="open a lake in the browser: replays, card stats, matchups, charges",
        description="Start the postgame web app (Streamlit) on a lake and print its address.",
        examples=EXAMPLES)
    p.add_argument("--lake", type=Path, required=True, metavar="DIR",
                   help="the lake folder (postgame ingest ... --lake DIR)")
    p.add_argument("--port", type=int_in(1, 65535), default=None,
                   help=f"port to listen on (default {DEFAULT_PORT}, or a free one if taken)")
    p.add_argument("--address", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lake = args.lake.expanduser().resolve()
    if lake.exists() and not lake.is_dir():
        raise UserError(f"{args.lake}: is a file, not a lake folder (postgame ingest LOGS "
                        "--lake DIR makes one)")
    refuse_other_layout(lake)
    port = choose_port(args.port, args.address)
    if not (lake / "manifest.json").is_file():
        print(f"postgame app: {lake} holds no lake yet; the app will say how to fill it",
              file=sys.stderr)
    server = subprocess.Popen(server_command(port, args.address), env=server_env(lake),
                              stdout=subprocess.DEVNULL)
    signal.signal(signal.SIGTERM, _exit_on_term)  # `kill` stops the server too, via finally
    try:
        url = f"http://{_host(args.address)}:{port}"
        if not wait_until_ready(url, server):
            return server.wait() or 1
        print(f"postgame app: {url} (lake {lake}); Ctrl+C stops it", flush=True)
        return server.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        _stop(server)


def refuse_other_layout(lake: Path) -> None:
    """A lake of another layout is refused here, as every command refuses it, rather than
    opened on a page that can only say the same; other faults are the app's to show."""
    from pipeline.lake import Lake
    from pipeline.lake_layout import LakeError
    from pipeline.manifest import OtherLayout

    try:
        Lake(lake).manifest()
    except OtherLayout as err:
        raise UserError(str(err)) from err
    except LakeError:
        pass


def server_command(port: int, address: str) -> list[str]:
    """`streamlit run dashboards/app.py` with the settings a local tool wants."""
    return [sys.executable, "-m", "streamlit", "run", str(APP),
            "--server.port", str(port), "--server.address", address,
            "--server.headless", "true", "--server.fileWatcherType", "none",
            "--browser.gatherUsageStats", "false", "--client.toolbarMode", "viewer",
            "--client.showErrorDetails", "none", "--global.developmentMode", "false"]


def server_env(lake: Path) -> dict[str, str]:
    return {**os.environ, LAKE_ENV: str(lake)}


def choose_port(wanted: int | None, address: str) -> int:
    """The asked port (refused when taken), or 8501, or any free port when 8501 is taken."""
    if wanted is not None:
        if not 0 < wanted < 65536:
            raise UserError(f"--port {wanted}: choose a port between 1 and 65535")
        if not port_is_free(wanted, address):
            raise UserError(f"port {wanted} is already in use; pick another with --port")
        return wanted
    if port_is_free(DEFAULT_PORT, address):
        return DEFAULT_PORT
    with socket.socket() as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])


def port_is_free(port: int, address: str) -> bool:
    """Free for a server: nothing listens there (a closed connection's TIME_WAIT does not
    count, as the server binds with SO_REUSEADDR too)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError:
            return False
    return True


def wait_until_ready(url: str, server: subprocess.Popen[bytes],
                     timeout: float = READY_TIMEOUT_S) -> bool:
    """Poll the server's health endpoint until it answers; False if the server died first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            print(f"postgame app: the server stopped (exit {server.returncode}) before it "
                  "was ready; see the messages above", file=sys.stderr)
            return False
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return True
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    print(f"postgame app: no answer from {url} after {timeout:.0f}s", file=sys.stderr)
    return False


def _exit_on_term(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _host(address: str) -> str:
    return "127.0.0.1" if address in ("0.0.0.0", "::", "") else address


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
