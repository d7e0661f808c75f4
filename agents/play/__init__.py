"""``crowsnest-play``: a Textual app to play Rook with an AI partner against two AI opponents.

| module | what |
|---|---|
| :mod:`.cli` | the command line (``main``): play, ``--autoplay --screenshot``, ``--replay``, ``--web`` |
| :mod:`.web` | ``--web``: textual-serve, with no app process outliving its browser tab |
| :mod:`.app` | the Textual app: table, turn loop, hints, last trick, save |
| :mod:`.dialogs` | the person's dialogs: bid, nest discard, trump; the last trick; the new-game question |
| :mod:`.screens` | hand summary; rules; settings; stats |
| :mod:`.widgets` | cards, hand, trick, seats, side panel (laid out for 80x24 up) |
| :mod:`.session` | the game without UI: a ``Table``, agents built and checked on the rules, hints, replay |
| :mod:`.levels` | the difficulty levels: level -> agent, one table |
| :mod:`.settings` | settings remembered in the user's config folder |
| :mod:`.history` | your record: finished games kept in the user data folder, the Stats figures |
| :mod:`.rules_text` | the rules screen, generated from the ``Variant`` |
"""

from __future__ import annotations

from .cli import main

__all__ = ["main"]
