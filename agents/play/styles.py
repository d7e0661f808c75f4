"""The play app's stylesheet (Textual CSS), kept as a string so it ships with the package.

Laid out for 80x24 up: the screen classes ``-narrow`` (under 110 columns) / ``-wide`` and
``-short`` (under 34 rows) / ``-tall`` come from the app's breakpoints. The hand spans the whole
width; the person's dialogs sit over the bottom of the table, left of the side panel, so the
seats and the auction stay in sight.
"""

SIDE_WIDE, SIDE_NARROW = 38, 26

CSS = f"""
#keys {{ height: 1; background: $panel; color: $text-muted; }}
#top {{ height: 1fr; }}
#table {{ width: 1fr; height: 1fr; }}
#side {{ width: {SIDE_WIDE}; height: 1fr; border-left: solid $primary; padding: 0 1; }}
.-narrow #side {{ width: {SIDE_NARROW}; padding: 0 0 0 1; }}
#north {{ height: 4; content-align: center middle; text-align: center; width: 100%; }}
.-short #north {{ height: 3; }}
#middle {{ height: 1fr; align: center middle; }}
#west, #east {{ width: 20; height: 100%; max-height: 25; content-align: center middle; }}
.-narrow #west, .-narrow #east {{ width: 15; }}
.-short #west, .-short #east {{ content-align: center top; padding-top: 1; }}
#trick {{ width: 1fr; max-width: 64; height: 100%; max-height: 25; content-align: center middle;
          text-align: center; border: round $primary-darken-2; }}
#prompt {{ height: 1; width: 100%; text-align: center; color: $accent; text-style: bold; }}
#hand {{ height: 4; width: 100%; align: center middle; overflow-x: auto; overflow-y: hidden; }}
.-short #hand {{ height: 3; }}
.group {{ width: auto; height: 3; margin-right: 2; }}
.-narrow .group {{ margin-right: 1; }}
.card {{ width: auto; min-width: 6; height: 3; margin: 0 1 0 0; border: none; text-style: bold; padding: 0; }}
.-narrow .card {{ min-width: 4; }}
.card.c0 {{ background: #262626; color: #f0f0f0; }}
.card.c1 {{ background: #1e7b3c; color: #ffffff; }}
.card.c2 {{ background: #b8322a; color: #ffffff; }}
.card.c3 {{ background: #e8b923; color: #1a1a1a; }}
.card.cx {{ background: #6a3d9a; color: #ffffff; }}
.card.trump {{ outline: round gold; }}
.card:focus {{ outline: round white; text-style: bold reverse; }}
.card.hinted, Button.hinted {{ outline: round cyan; }}
Button.hinted.-textual-compact {{ outline: none; background: $accent; color: $text; }}
.card.illegal {{ tint: $background 60%; text-style: strike; }}
.card.chosen {{ outline: round lime; text-style: bold underline; }}
.card.from-nest {{ text-style: italic bold; }}
.handline {{ margin-bottom: 1; }}
.-short .handline {{ margin-bottom: 0; }}
.dialog {{ align: center middle; background: $background 60%; }}
.dialog.docked {{ align: left bottom; background: $background 0%; }}
.box {{ width: 64; height: auto; max-height: 100%; padding: 1 2; border: round $primary; background: $surface; }}
.-short .box {{ padding: 0 1; }}
.box.wide {{ width: 100; max-width: 100%; }}
.box.tall {{ height: 90%; }}
.-short .box.tall {{ height: 100%; }}
.docked .box {{ width: 1fr; max-width: 100; margin: 0 {SIDE_WIDE} 1 0; }}
.-narrow.docked .box {{ margin: 0 {SIDE_NARROW} 1 0; }}
.title {{ text-style: bold; width: 100%; margin-bottom: 1; }}
.-short .title {{ margin-bottom: 0; }}
.good {{ color: $success; }}
.bad {{ color: $error; }}
.note {{ color: $text-muted; margin-top: 1; }}
.hintline {{ color: $accent; width: 100%; height: auto; }}
#discards {{ grid-size: 10; grid-columns: 7; grid-rows: 3; grid-gutter: 1 0; height: auto; margin-bottom: 1; }}
#discards.compact {{ grid-size: 8; grid-columns: 6; grid-rows: 1; grid-gutter: 1 0; margin-bottom: 0; }}
#discards.compact .card {{ height: 1; width: 100%; min-width: 5; }}
#discards.compact .card:focus {{ outline: none; text-style: bold reverse; }}
#discards.compact .card.chosen {{ outline: none; text-style: bold underline; tint: white 25%; }}
.row {{ height: auto; width: 100%; }}
#chosen {{ padding: 0 1; }}
#bids {{ grid-size: 6; grid-gutter: 0 1; height: auto; margin-bottom: 1; }}
.-short #bids {{ grid-size: 7; grid-gutter: 1 1; margin-bottom: 0; }}
.bid {{ min-width: 6; width: 100%; }}
.trumpbtn {{ margin-right: 1; min-width: 10; }}
.trumpbtn.c0 {{ background: #262626; color: #f0f0f0; }}
.trumpbtn.c1 {{ background: #1e7b3c; color: #ffffff; }}
.trumpbtn.c2 {{ background: #b8322a; color: #ffffff; }}
.trumpbtn.c3 {{ background: #e8b923; color: #1a1a1a; }}
#form {{ grid-size: 2; grid-columns: 20 1fr; grid-rows: 3; height: auto; }}
#form Label {{ padding: 1 0 0 0; }}
#form.compact {{ grid-rows: 1; grid-gutter: 1 0; }}
#form.compact Label {{ padding: 0; }}
#form.compact Input {{ height: 1; border: none; padding: 0 1; }}
#form-scroll {{ height: 1fr; }}
#summary-body {{ height: auto; max-height: 1fr; }}
#sheet {{ height: auto; max-height: 12; margin: 1 0; }}
.-short #sheet {{ max-height: 8; margin: 0; }}
#stats {{ height: auto; max-height: 16; }}
#error {{ width: 100%; }}
#rules {{ height: auto; }}
"""
