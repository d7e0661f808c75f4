"""``crowsnest-play --web``: the same app in the browser, one app process per browser tab.

textual-serve starts ``crowsnest-play`` (without ``--web``) for each websocket. This server is
textual-serve's with its process handling made strict, so that no app process outlives its tab:

- the websocket is pinged every :data:`HEARTBEAT` seconds, so a browser that vanishes without
  closing (a killed browser, a lost network) is noticed within seconds;
- the page is sent with ``Cache-Control: no-store``, so a page left is unloaded and its
  websocket closed, not kept alive in the browser's back-forward cache;
- when a tab's websocket closes, its app is asked to quit and, if it has not ended within
  :data:`QUIT_WAIT` seconds (busy, or blocked writing to a pipe nobody reads), it is terminated
  and then killed;
- the command ``exec``s Python, so the process that is stopped is the app itself, not a shell;
- each app watches this server's pid (:data:`~agents.play.cli.SERVER_PID_ENV`, passed to :func:`serve`) and exits if the
  server itself is killed.

W in the browser sends the game record to the browser as a download (Textual's
``deliver_text``): nothing is written in the server's folder.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import sys

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

HEARTBEAT = 2.0
"""Seconds between websocket pings; a missing pong closes the websocket."""
QUIT_WAIT = 2.0
"""Seconds an app has to quit after its websocket closed, before it is terminated (then killed)."""

log = logging.getLogger("crowsnest.play.web")


def app_command(argv: list[str]) -> str:
    """The shell command of one tab's app: these options without the server's own."""
    rest, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--web":
            continue
        elif a in ("--port", "--host"):
            skip = True
        elif not a.startswith(("--port=", "--host=")):
            rest.append(a)
    return "exec " + " ".join(shlex.quote(x) for x in [sys.executable, "-m", "agents.play", *rest])


class TabApp(AppService):
    """One tab's app process; :meth:`stop` ends it for certain (quit, then terminate, then kill)."""

    async def stop(self) -> None:
        process = self._process
        try:
            await asyncio.wait_for(super().stop(), QUIT_WAIT)
        except (TimeoutError, OSError, RuntimeError):
            pass
        if process is None or process.returncode is not None:
            return
        for signal_process in (process.terminate, process.kill):
            try:
                await asyncio.wait_for(process.wait(), QUIT_WAIT)
                return
            except TimeoutError:
                log.warning("app process %s did not quit; stopping it", process.pid)
                try:
                    signal_process()
                except ProcessLookupError:
                    return
        await process.wait()


async def _no_store(request: web.Request, response: web.StreamResponse) -> None:
    if request.path == "/":  # a page left is unloaded (not kept in the back-forward cache, socket open)
        response.headers["Cache-Control"] = "no-store"


class PlayServer(Server):
    """textual-serve's server with :class:`TabApp` processes and the heartbeat and cache rules above."""

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.on_response_prepare.append(_no_store)
        return app

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        app_service: TabApp | None = None
        try:
            await websocket.prepare(request)
            app_service = TabApp(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                 close=websocket.close,  # type: ignore[arg-type]  # as textual-serve
                                 download_manager=self.download_manager, debug=self.debug)
            await app_service.start(width, height)
            await self._process_messages(websocket, app_service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 - as textual-serve: log, then stop the app
            log.exception(error)
        finally:
            if app_service is not None:
                await asyncio.shield(app_service.stop())
        return websocket


def make_server(command: str, host: str, port: int) -> PlayServer:
    return PlayServer(command, host=host, port=port, title="CrowsNest")


def serve(argv: list[str], host: str, port: int, pid_env: str) -> None:
    """Serve the app through textual-serve: each browser tab runs ``crowsnest-play`` without --web,
    told this server's pid in the environment variable ``pid_env`` (it exits once the server is gone)."""
    os.environ[pid_env] = str(os.getpid())  # the tabs' apps inherit it (textual-serve copies os.environ)
    make_server(app_command(argv), host, port).serve()
