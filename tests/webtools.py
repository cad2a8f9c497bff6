"""A `tarock serve` process for the web tests: started on a free port, waited for, stopped.

It runs ``python -m cli`` from this checkout's root, so the server and its job processes
are this checkout's commands even where another checkout is installed as tarock_cli.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(*options: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """``tarock [OPTIONS] serve`` on a free port: its address and its process (its
    standard error piped), once the Advice page answers."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cli", *options, "serve", "--port",
                             str(port)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/advise", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("the server did not start: " + proc.stderr.read().decode())
    try:
        yield base, proc
    finally:
        proc.terminate()
        proc.wait(10)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
#: The mark of a test that drives a browser: skipped, with the reason, without one.
web = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                         reason="the browser tests need chromium and chromium-driver "
                                "(apt-get install chromium chromium-driver)")


@contextlib.contextmanager
def headless_chromium(profile: Path) -> Iterator[object]:
    """A selenium driver of headless Chromium with its profile in ``profile`` (skipped
    without selenium)."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1200,1000",
                 f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: object, condition: object, timeout: float = 240) -> object:
    """``condition(driver)`` once it holds, polled every 0.1 s for ``timeout`` seconds."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # the page re-renders its status while a run works: an element found by one poll may
    # be replaced before its text is read, and the next poll finds the new one
    return WebDriverWait(driver, timeout, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)
