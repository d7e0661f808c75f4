"""The play app in a browser: ``crowsnest-play --web`` served on 127.0.0.1 and driven by headless
chromium through the DevTools protocol (opt-in: ``pytest -m browser``; skipped without chromium)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
KEYS = {"enter": ("Enter", "Enter", 13, "\r"), "p": ("p", "KeyP", 80, "p"), "w": ("w", "KeyW", 87, "w")}


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


class DevTools:
    """The few DevTools calls the test needs, over aiohttp's websocket client."""

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


async def drive(debug_port: int, url: str, shot: Path) -> None:
    import aiohttp

    async with aiohttp.ClientSession() as http:
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
            await asyncio.sleep(6)  # the page loads, textual-serve starts the app
            for kind in ("mousePressed", "mouseReleased"):  # focus the terminal (on the side panel)
                await dt.call("Input.dispatchMouseEvent", type=kind, x=1250, y=600, button="left", clickCount=1)
            await dt.key("p")  # pass in the bid dialog: seed 1 leaves the contract to the partner
            for _ in range(5):
                await asyncio.sleep(0.8)
                await dt.key("enter")  # play the focused (first legal) card when it is our turn
            await dt.key("w")  # save the record
            await asyncio.sleep(1.5)
            data = await dt.call("Page.captureScreenshot", format="png")
            shot.write_bytes(base64.b64decode(data["data"]))


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_play_a_card_in_the_browser(tmp_path):
    port, debug_port = free_port(), free_port()
    record = tmp_path / "web-game.json"
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH", "")])}
    server = subprocess.Popen(
        [sys.executable, "-m", "agents.play", "--web", "--host", "127.0.0.1", "--port", str(port), "--seed", "1",
         "--speed", "0", "--partner", "heuristic", "--opponents", "heuristic", "--save", str(record)],
        env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    browser = None
    try:
        wait_for_port(port)
        browser = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--remote-debugging-port={debug_port}",
             f"--user-data-dir={tmp_path / 'chromium'}", "--window-size=1400,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shot = tmp_path / "web.png"
        asyncio.run(asyncio.wait_for(drive(debug_port, f"http://127.0.0.1:{port}", shot), 90))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        from agents.play.session import load_record
        from crowsnest_env import replay

        state = replay(load_record(str(record)))
        assert state.hand_no == 0 and state.played[0], "our seat played cards through the browser"
    finally:
        for proc in (browser, server):
            if proc is not None:
                proc.terminate()
                proc.wait(10)
