"""Page render times of the app on a lake: each page's first load (cold caches) and its render
after that (what a designer waits for when they come back to a page or change nothing), through
Streamlit's AppTest in this process. Aim: every page under 1 s after the first load, on a
100,000-match lake.

    .venv/bin/python benchmarks/bench_app.py --lake LAKE [--repeat 3]
"""
from __future__ import annotations

import argparse
import logging
import os
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[1] / "dashboards" / "app.py"
PAGES = ("replay", "cards", "card", "matchups", "archetypes", "charges", "glossary", "export",
         "lake")


def timed(action) -> tuple[float, AppTest]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def measure(page: str, repeat: int) -> tuple[float, float]:
    def first() -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=600).run()
        if page != "replay":
            at.switch_page(f"app_pages/{page}.py").run()
        return at
    cold, at = timed(first)
    if at.exception:
        raise SystemExit(f"page {page} failed: {at.exception}")
    warm = min(timed(at.run)[0] for _ in range(repeat))
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lake", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ["POSTGAME_LAKE"] = str(args.lake.resolve())
    logging.getLogger("streamlit").setLevel(logging.ERROR)  # bare-mode notices, not figures
    print(f"lake {args.lake}")
    print(f"{'page':12} {'first load':>11} {'after':>8}")
    worst = 0.0
    for page in PAGES:
        cold, warm = measure(page, args.repeat)
        worst = max(worst, warm)
        print(f"{page:12} {cold:10.2f}s {warm:7.2f}s")
    print(f"slowest page after the first load: {worst:.2f} s (aim: under 1 s)")


if __name__ == "__main__":
    main()
