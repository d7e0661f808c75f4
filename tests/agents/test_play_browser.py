"""The play app in a browser: ``crowsnest-play --web`` served on 127.0.0.1 and driven by headless
chromium through the DevTools protocol (opt-in: ``pytest -m browser``; skipped without chromium).

Issue 17 bug 9: a browser that disconnected abruptly left its app process at 100% CPU, a page
left left an idle one, and W saved in the server's folder. Each tab's app is now a child of the
server that ends with its websocket (agents/play/web.py), and W downloads the record.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.skipif(
    (shutil.which("chromium") or shutil.which("chromium-browser")) is None, reason="chromium is not installed")]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
KEYS = {"enter": ("Enter", "Enter", 13, "\r"), "p": ("p", "KeyP", 80, "p"), "w": ("w", "KeyW", 87, "w")}
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listens on port {port}")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the tabs' apps of a server)."""
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def wait_until(condition, seconds: float, what: str) -> float:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if condition():
            return time.monotonic() - start
        time.sleep(0.1)
    raise AssertionError(f"after {seconds} s: {what}")


@contextlib.contextmanager
def web_server(tmp_path: Path, *args: str):
    port = free_port()
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    server = subprocess.Popen(
        [sys.executable, "-m", "agents.play", "--web", "--host", "127.0.0.1", "--port", str(port), *args],
        env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield server, port
    finally:
        server.terminate()
        server.wait(15)


@contextlib.contextmanager
def chromium(tmp_path: Path):
    debug_port = free_port()
    browser = subprocess.Popen(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--no-first-run", f"--remote-debugging-port={debug_port}", f"--user-data-dir={tmp_path / 'chromium'}",
         "--window-size=1400,900", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        yield browser, debug_port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(browser.pid, signal.SIGKILL)
        browser.wait(10)


class DevTools:
    """The few DevTools calls the tests need, over aiohttp's websocket client."""

    def __init__(self, ws):
        self.ws, self.n = ws, 0

    async def call(self, method: str, **params):
        self.n += 1
        await self.ws.send_json({"id": self.n, "method": method, "params": params})
        while True:
            msg = json.loads((await self.ws.receive()).data)
            if msg.get("id") == self.n:
                return msg.get("result", {})

    async def key(self, name: str) -> None:
        key, code, vk, text = KEYS[name]
        await self.call("Input.dispatchKeyEvent", type="rawKeyDown", key=key, code=code, windowsVirtualKeyCode=vk)
        await self.call("Input.dispatchKeyEvent", type="char", key=key, code=code, windowsVirtualKeyCode=vk, text=text)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk)

    async def focus_terminal(self) -> None:
        for kind in ("mousePressed", "mouseReleased"):  # on the side panel
            await self.call("Input.dispatchMouseEvent", type=kind, x=1250, y=600, button="left", clickCount=1)


async def with_page(debug_port: int, url: str, work) -> None:
    """Open ``url`` in the browser's page and run ``work(devtools)``."""
    import aiohttp

    async with aiohttp.ClientSession() as http:
        pages: list = []
        for _ in range(50):
            try:
                async with http.get(f"http://127.0.0.1:{debug_port}/json/list") as r:
                    pages = [p for p in await r.json() if p["type"] == "page"]
                if pages:
                    break
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.2)
        async with http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            dt = DevTools(ws)
            await dt.call("Page.enable")
            await dt.call("Page.navigate", url=url)
            await work(dt)


def test_play_cards_and_download_the_record(tmp_path):
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    shot = tmp_path / "web.png"

    async def play(dt: DevTools) -> None:
        await dt.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads))
        await asyncio.sleep(6)  # the page loads, textual-serve starts the app
        await dt.focus_terminal()
        await dt.key("p")  # pass in the bid dialog: seed 1 leaves the contract to a computer player
        for _ in range(5):
            await asyncio.sleep(0.8)
            await dt.key("enter")  # play the focused (first legal) card when it is our turn
        await dt.key("w")  # the record, as a download
        for _ in range(40):
            if list(downloads.glob("*.json")):
                break
            await asyncio.sleep(0.25)
        data = await dt.call("Page.captureScreenshot", format="png")
        shot.write_bytes(base64.b64decode(data["data"]))

    with web_server(tmp_path, "--seed", "1", "--speed", "0") as (_, port), chromium(tmp_path) as (_, dport):
        asyncio.run(asyncio.wait_for(with_page(dport, f"http://127.0.0.1:{port}", play), 90))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    files = list(downloads.glob("*.json"))
    assert len(files) == 1 and files[0].name.startswith("crowsnest-")
    from crowsnest_env import replay

    state = replay(files[0])
    assert state.hand_no == 0 and state.played[0], "our seat played cards through the browser"
    assert not list(tmp_path.glob("*.json")), "nothing was written in the server's folder"


@pytest.mark.parametrize("leave", ["kill the browser", "leave the page"])
def test_no_app_process_outlives_its_browser(tmp_path, leave):
    """The browser goes away abruptly (killed) or the page is left: its app process is gone within
    a few seconds, while the computer players are thinking (PIMC partner and opponents)."""
    timing: dict[str, float] = {}

    async def open_and_go(dt: DevTools) -> None:
        wait_until(lambda: children(server.pid), 20, "no app process started for the tab")
        await asyncio.sleep(4)
        await dt.focus_terminal()
        await dt.key("p")  # pass: the PIMC players bid and play on
        await asyncio.sleep(0.5)
        timing["apps"] = len(children(server.pid))
        if leave == "leave the page":
            await dt.call("Page.navigate", url="about:blank")
        else:
            os.killpg(browser.pid, signal.SIGKILL)

    with web_server(tmp_path, "--seed", "1", "--speed", "0", "--partner", "pimc", "--opponents",
                    "pimc") as (server, port), chromium(tmp_path) as (browser, dport):
        with contextlib.suppress(Exception):  # a killed browser ends the DevTools connection abruptly
            asyncio.run(asyncio.wait_for(with_page(dport, f"http://127.0.0.1:{port}", open_and_go), 60))
        assert timing["apps"] == 1
        gone = wait_until(lambda: not children(server.pid), 5, "the tab's app process is still running")
        assert server.poll() is None  # the server itself serves on
    print(f"{leave}: the app was gone after {gone:.1f} s")
