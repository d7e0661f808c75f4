"""``crowsnest-play``: a Textual app to play Rook with an AI partner against two AI opponents.

| module | what |
|---|---|
| :mod:`.cli` | the command line (``main``): play, ``--autoplay --screenshot``, ``--replay``, ``--web`` |
| :mod:`.app` | the Textual app: table, turn loop, hints, save |
| :mod:`.screens` | bid, discard and trump dialogs; hand summary; rules; settings |
| :mod:`.widgets` | cards, hand, trick, seats, side panel |
| :mod:`.session` | the game without UI: a ``Table``, agents, hints, replay |
| :mod:`.settings` | settings remembered in the user's config folder |
| :mod:`.rules_text` | the rules screen, generated from the ``Variant`` |
"""

from __future__ import annotations

from .cli import main

__all__ = ["main"]
