"""The play app's stylesheet (Textual CSS), kept as a string so it ships with the package."""

CSS = """
#keys { dock: bottom; height: 1; background: $panel; color: $text-muted; }
#body { height: 1fr; }
#table { width: 1fr; height: 1fr; }
#side { width: 38; height: 1fr; border-left: solid $primary; padding: 0 1; }
#north { height: 5; content-align: center middle; width: 100%; }
#middle { height: 1fr; }
#west, #east { width: 20; height: 100%; content-align: center middle; }
#trick { width: 1fr; height: 100%; content-align: center middle; text-align: center; border: round $primary-darken-2; }
#prompt { height: 1; width: 100%; text-align: center; color: $accent; text-style: bold; }
#hand { height: 4; width: 100%; align: center middle; overflow-x: auto; }
.group { width: auto; height: 3; margin-right: 2; }
.card { width: auto; min-width: 6; height: 3; margin: 0 1 0 0; border: none; text-style: bold; padding: 0; }
.card.c0 { background: #262626; color: #f0f0f0; }
.card.c1 { background: #1e7b3c; color: #ffffff; }
.card.c2 { background: #b8322a; color: #ffffff; }
.card.c3 { background: #e8b923; color: #1a1a1a; }
.card.cx { background: #6a3d9a; color: #ffffff; }
.card.trump { outline: round gold; }
.card:focus { outline: round white; text-style: bold reverse; }
.card.hinted { outline: round cyan; }
.card.illegal { tint: $background 60%; text-style: strike; }
.handline { margin-bottom: 1; }
.card.chosen { outline: round lime; text-style: bold underline; }
.card.from-nest { text-style: italic bold; }
.dialog { align: center middle; background: $background 60%; }
.box { width: 64; height: auto; max-height: 90%; padding: 1 2; border: round $primary; background: $surface; }
.box.wide { width: 96; }
.box.tall { height: 90%; }
.title { text-style: bold; width: 100%; margin-bottom: 1; }
.good { color: $success; }
.bad { color: $error; }
#discards { grid-size: 10; grid-columns: 8; grid-rows: 3; grid-gutter: 1 0; height: auto; margin-bottom: 1; }
.row { height: auto; width: 100%; }
#bids { grid-size: 6; grid-gutter: 0 1; height: auto; margin-bottom: 1; }
.bid { min-width: 8; width: 100%; }
.trumpbtn { margin-right: 1; min-width: 12; }
.trumpbtn.c0 { background: #262626; color: #f0f0f0; }
.trumpbtn.c1 { background: #1e7b3c; color: #ffffff; }
.trumpbtn.c2 { background: #b8322a; color: #ffffff; }
.trumpbtn.c3 { background: #e8b923; color: #1a1a1a; }
#form { grid-size: 2; grid-columns: 22 1fr; grid-rows: 3; height: auto; }
#form Label { padding: 1 0 0 0; }
#sheet { height: auto; max-height: 12; margin: 1 0; }
#error { width: 100%; }
#rules { height: auto; }
"""
