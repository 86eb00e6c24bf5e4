"""Every text of Dorfromantik: The Duel, in English, by message id (``app.games.text``).

Names follow the rulebook (seed 003): Landscape tile, Task tile, Task marker, rail,
river, forest, grain, village, flag.  Tile ids (``L17``, ``T05``) stay as they are:
they are the order notation's words.  Every other language is a gettext catalogue
(``app/i18n/translations/<lang>/LC_MESSAGES/duel.po``, see ``bin/i18n``).
"""

from __future__ import annotations

from typing import Any

from app.games.duel.geometry import DIR_NAMES, TILES
from app.games.text import TN, Catalogue, Msg, T, listing, msg, name

TEXT = Catalogue("duel", [
    # --- glossary ---------------------------------------------------------------
    T("title", "Dorfromantik: The Duel"),
    T("turn.turn", "turn {turn}"),
    T("seat.RED", "Red"),
    T("seat.BLUE", "Blue"),
    T("terrain.F", "forest"),
    T("terrain.G", "grain"),
    T("terrain.V", "village"),
    T("terrain.M", "meadow"),
    T("terrain.R", "rail"),
    T("terrain.W", "river"),
    # what a single task measures, as in "the {what} of your new Forest task"
    T("network.F", "forest territory"),
    T("network.G", "grain territory"),
    T("network.V", "village territory"),
    T("network.R", "rail network"),
    T("network.W", "river"),
    T("task.FOR", "Forest task"),
    T("task.GRA", "Grain task"),
    T("task.VIL", "Village task"),
    T("task.RAI", "Rail task"),
    T("task.RIV", "River task"),
    T("task.CON", "Connection task"),
    T("task.DBL", "Double task"),
    # a task marker: its type and the value printed on it
    T("marker.FOR", "Forest {value}"),
    T("marker.GRA", "Grain {value}"),
    T("marker.VIL", "Village {value}"),
    T("marker.RAI", "Rail {value}"),
    T("marker.RIV", "River {value}"),
    T("marker.CON", "Connection {value}"),
    T("marker.DBL", "Double {value}"),
    # the short type label printed in a marker's disc on the board
    T("abbr.FOR", "FOR"),
    T("abbr.GRA", "GRA"),
    T("abbr.VIL", "VIL"),
    T("abbr.RAI", "RAI"),
    T("abbr.RIV", "RIV"),
    T("abbr.CON", "CON"),
    T("abbr.DBL", "DBL"),
    T("flag.F", "green flag"),
    T("flag.G", "yellow flag"),
    T("flag.V", "red flag"),
    T("dir.N", "N"),
    T("dir.NE", "NE"),
    T("dir.SE", "SE"),
    T("dir.S", "S"),
    T("dir.SW", "SW"),
    T("dir.NW", "NW"),
    # --- pieces of text ---------------------------------------------------------
    T("or", "{a} or {b}"),
    T("semicolon", "{a}; {b}"),
    T("seat_number", "{seat} {n}"),
    T("tile.plain", "{tile} ({edges})"),
    T("tile.flag", "{tile} ({edges}; {flag})"),
    T("tile.task", "{tile} ({edges})"),
    # a tile's name (its notation id, L17 or T05, stays for the notation and tooltips)
    T("tilename.landscape", "landscape tile {n}"),
    T("tilename.task", "{task} tile {n}"),
    # the edges of a tile, terrain by terrain clockwise from north: "forest N–SE, grain S–SW, meadow NW"
    T("run.all", "{terrain} all round"),
    T("run.one", "{terrain} {a}"),
    T("run.span", "{terrain} {a}–{b}"),
    T("comma", "{a}, {b}"),
    T("tile.with_marker", "{tile} with marker {marker}"),
    T("now.half", "{terrain} {n}"),
    T("now.half_dead", "{terrain} {n} (dead)"),
    T("now.double", "{a} / {b}"),
    TN("now.neighbours", "{n} neighbour", "{n} neighbours"),
    TN("now.tiles", "{n} tile", "{n} tiles"),
    TN("now.tiles_closed", "{n} tile (closed)", "{n} tiles (closed)"),
    T("half", "{terrain}: {n}"),
    T("half_closed", "{terrain}: {n} closed"),
    # --- events -----------------------------------------------------------------
    T("event.reveal", "Turn {turn}: {tile} is revealed."),
    T("event.reveal_marker", "Turn {turn}: {tile} is revealed with marker {marker}."),
    T("event.pass", "Turn {turn}: {seat} has no legal placement for {tile} and passes."),
    T("event.pass_marker",
      "Turn {turn}: {seat} has no legal placement for {tile} and passes; marker {marker} goes to the box."),
    T("event.place", "Turn {turn}: {seat} placed {tile} at ({q},{r}) rotation {rot}."),
    T("event.place_auto", "Turn {turn}: {seat} placed {tile} at ({q},{r}) rotation {rot} (automatic placement)."),
    T("event.completed", "{seat} completed task {marker} at ({cell})."),
    T("event.cancelled", "{seat}'s task {marker} at ({cell}) is cancelled; the marker goes to the box."),
    T("event.status", "Active markers: {counts}; stacks: {land}, {task}."),
    TN("count.landscape", "{n} landscape tile", "{n} landscape tiles"),
    TN("count.task", "{n} task tile", "{n} task tiles"),
    TN("event.forfeit", "{seat} forfeits after {n} automatic placement in a row.",
       "{seat} forfeits after {n} automatic placements in a row."),
    T("event.over", "The game is over. Final scores: {scores}."),
    # --- refusals ---------------------------------------------------------------
    T("refuse.over", "The game is over; no more orders are taken."),
    T("refuse.not_a_seat", "{seat} is not a seat in this game."),
    T("refuse.passing", "You have no legal placement for {tile} this turn and pass automatically; no order is needed."),
    T("refuse.turn_closed", "Turn {turn} is not open for orders (open turn: {open})."),
    T("refuse.pass_not_allowed", "PASS is allowed only when no legal placement exists."),
    T("refuse.pass_not_allowed_example",
      "PASS is allowed only when no legal placement exists; for example {tile} at ({q},{r}) rotation {rot} is legal."),
    T("refuse.wrong_tile", "{given} is not this turn's tile; place {tile} ({code})."),
    T("refuse.bad_rotation", "Rotation must be 0–5."),
    T("refuse.bad_coord", "q and r must be integers from −99 to 99."),
    T("refuse.first_not_origin", "Your first tile must be placed at (0,0)."),
    T("refuse.occupied", "({q},{r}) already holds {tile}."),
    T("refuse.rail_mismatch",
      "Your {mine_dir} edge is {mine} but the {their_dir} edge of {tile} at ({q},{r}) is {theirs}: "
      "rail must meet rail."),
    T("refuse.river_mismatch",
      "Your {mine_dir} edge is {mine} but the {their_dir} edge of {tile} at ({q},{r}) is {theirs}: "
      "river must meet river."),
    T("refuse.not_adjacent", "({q},{r}) touches none of your tiles; a tile must share an edge with your area."),
    TN("refuse.connection_oversize",
       "Your new {task} would start with {n} neighbouring tile, more than its marker {v}.",
       "Your new {task} would start with {n} neighbouring tiles, more than its marker {v}."),
    TN("refuse.task_oversize",
       "Your new {task} would start with {n} tile, more than its marker {v}.",
       "Your new {task} would start with {n} tiles, more than its marker {v}."),
    TN("refuse.task_closed_small",
       "This closes the {what} of your new {task} at {n} tile, fewer than its marker {v}.",
       "This closes the {what} of your new {task} at {n} tiles, fewer than its marker {v}."),
    T("refuse.double_dead", "Neither territory of this Double task could still reach exactly 6 ({parts})."),
    T("refuse.bad_order", "Order must be PLACE tile q r rotation, or PASS."),
    T("refuse.bad_turn", "The turn must be a number, e.g. turn=7."),
    T("refuse.bad_numbers", "q, r and rotation must be whole numbers, e.g. PLACE L17 2 -1 3."),
    # --- the prompt ---------------------------------------------------------------
    T("prompt.place.title", "Turn {turn}: place {tile}"),
    T("prompt.place.title_marker", "Turn {turn}: place {tile} with marker {marker}"),
    T("prompt.place.text",
      "Place {tile} in your area: pick one of the numbered positions, then a rotation (each step turns "
      "the tile 60 degrees clockwise). Rails must meet rails and rivers must meet rivers; only the "
      "rotations that fit are offered. Your order stays sealed until both are in."),
    T("form.place", "Place the tile"),
    T("field.position", "Position"),
    T("field.rotation", "Rotation"),
    T("choice.position_any", "{n}: ({q},{r}) rotation any"),
    T("choice.position", "{n}: ({q},{r}) rotation {rots}"),
    T("choice.place", "position {n} ({q},{r})"),
    T("choice.rotation_named", "rotation {k}: {edges}"),
    # --- the board (SVG) ----------------------------------------------------------
    TN("board.title_you", "{seat} (you): {points} point, {active} active",
       "{seat} (you): {points} points, {active} active", count="points"),
    TN("board.title_opponent", "{seat} (opponent): {points} point, {active} active",
       "{seat} (opponent): {points} points, {active} active", count="points"),
    TN("board.title", "{seat}: {points} point, {active} active",
       "{seat}: {points} points, {active} active", count="points"),
    T("board.legend",
      "Flags A green (forest), B yellow (grain), C red (village). "
      "Markers: white open, grey with tick done, crossed cancelled."),
    T("board.areas", "Player areas"),
    T("board.rotation", "rotation {rot}"),
    T("board.cell", "{tile} ({code}) at ({q},{r}), rotation {rot}"),
    T("board.here", "your tile here"),
    # --- pages (templates/games/duel) -----------------------------------------------
    T("page.turn", "Turn {turn}"),
    T("page.game_over", "(game over)"),
    T("page.revealed", "Revealed tile:"),
    T("page.stacks", "Stacks: {land}, {task} ({box} boxed unseen)."),
    T("page.passing", "No legal placement this turn, passing automatically: {who}."),
    T("page.forfeited", "Forfeited after repeated automatic placements: {who}."),
    T("page.final_score", "Final score"),
    T("page.provisional_score", "Provisional score (only the final score counts)"),
    T("page.field", "Field"),
    T("page.tasks.FOR", "Forest tasks"),
    T("page.tasks.GRA", "Grain tasks"),
    T("page.tasks.VIL", "Village tasks"),
    T("page.tasks.RAI", "Rail tasks"),
    T("page.tasks.RIV", "River tasks"),
    T("page.tasks.CON", "Connection tasks"),
    T("page.tasks.DBL", "Double tasks"),
    T("page.subtotal", "Task subtotal"),
    T("page.flags_A", "A green flags"),
    T("page.flags_B", "B yellow flags"),
    T("page.flags_C", "C red flags"),
    T("page.rail_D", "D longest rail"),
    T("page.river_E", "E longest river"),
    T("page.total", "Total"),
    T("page.active_tasks", "active tasks"),
    T("page.your_active_tasks", "Your active tasks:"),
    T("page.active_task", "{marker} at ({cell}) now {now}"),
    T("page.none", "none"),
    T("page.empty", "empty"),
    T("page.completed", "Completed: {markers}."),
    T("page.cancelled", "Cancelled: {markers}."),
    T("page.passed_tiles", "Passed tiles: {tiles}."),
    T("page.last_turn", "Last turn:"),
    T("page.last_passed", "passed"),
    T("page.last_placed", "{tile} at ({cell}) rotation {rot}"),
    T("page.last_auto", "{text} (automatic)"),
    T("page.unrevealed_named",
      "Not yet revealed (order hidden): landscape tiles {land}; task tiles {task}; markers {markers}."),
    T("page.hidden_revealed_named",
      "Revealed after scoring: boxed tiles {box}; landscape stack, in order: tiles {land}; "
      "task stack, in order: tiles {task}."),
    T("page.by_email", "By email:"),
    T("page.your_choices", "Your choices for {tile}:"),
    T("page.your_choices_marker", "Your choices for {tile} with {marker}:"),
    T("page.rotations_named", "Rotations of {tile}, edges clockwise from north: {faces}."),
    T("page.no_placement", "You have no legal placement for {tile} and pass this turn automatically."),
    T("page.pick_position", "Position (tap a number on your area)"),
    T("page.show_position", "Show this position"),
    T("page.pick_rotation", "Rotation (clockwise, 60 degrees each): tap a picture"),
    T("page.chosen_label", "Your tile, drawn in red on your area, goes at"),
    T("page.legend_terrains", "Terrains:"),
    T("page.zoom_in", "Full size"),
    T("page.zoom_out", "Fit to the screen"),
    T("page.legend_marks",
      "Flags: A green (forest), B yellow (grain), C red (village). Task markers: white disc open, "
      "grey with a tick done, crossed cancelled."),
    T("page.legend_candidates", "Dashed numbered hexes: where your tile may go."),
    T("page.legend_abbr", "Markers:"),
    T("page.legend_abbr_one", "{abbr} {task}"),
    # --- the one-page rules summary (templates/games/duel/rules.html) ---------------------
    T("rules.title", "How to play Dorfromantik: The Duel"),
    T("rules.goal",
      "Two players build their own landscape from the same tiles. Complete the inhabitants' tasks, close "
      "territories that hold flags and build the longest rail and river: the higher score wins."),
    T("rules.turn_h", "A turn"),
    T("rules.turn",
      "Each turn one tile is revealed, the same for both players. While either area holds fewer than 3 "
      "task markers (always the case in the first 3 turns), it is a task tile with its task marker; otherwise a "
      "landscape tile. Both players place it in their own area at the same time; orders stay sealed "
      "until both are in."),
    T("rules.place_h", "Placing a tile"),
    T("rules.place_first", "Your first tile goes in the middle; every later tile must touch one of your tiles."),
    T("rules.place_lines",
      "Rails must meet rails and rivers must meet rivers. Forest, grain, village and meadow edges may "
      "touch any land edge."),
    T("rules.place_task",
      "A task tile may not be placed where its task would start above its number, or closed below it."),
    T("rules.place_page",
      "On your page, tap a numbered position on your area, then one of the drawn rotations: only the "
      "placements that fit are offered."),
    T("rules.tasks_h", "Tasks"),
    T("rules.tasks",
      "A task marker shows a number from 3 to 6: the territory, rail or river it lies in must hold exactly "
      "that many tiles. It is completed the moment it does, and cancelled if it grows past the number or "
      "is closed with fewer. A Connection task counts the tiles around it; a Double task is completed "
      "when either of its two territories holds exactly 6."),
    T("rules.end_h", "End and scoring"),
    T("rules.end",
      "The game ends when a landscape tile is needed and none is left. Score the values of your "
      "completed tasks; each flag in a closed territory scores the size of that territory (A green: "
      "forest, B yellow: grain, C red: village); add the tiles of your longest rail (D) and of your "
      "longest river (E). A tie goes to the higher task subtotal."),
    T("rules.deadline",
      "If you miss the deadline, your tile is placed for you at the first position and rotation that "
      "cancels none of your tasks; three such placements in a row forfeit the game. With no legal "
      "placement you pass and the tile leaves your game."),
    # -- orders reserved for the server ------------------------------------------------------------
    T("unreadable.reserved", "{order} is not something you can write: the server marks its own "
                             "placement for a missed deadline with it."),
])


def seat_name(s: str) -> Msg:
    """A seat's colour (``RED`` -> "Red")."""
    return name("seat", s)


def marker(m: str) -> Msg:
    """A task marker such as ``GRA-4``: its type and value ("Grain 4")."""
    code, _, value = m.partition("-")
    return msg(f"marker.{code}", value=int(value))


def markers(ms: list[str]) -> dict[str, Any]:
    return listing(marker(m) for m in ms)


def alternatives(values: list[int]) -> Any:
    """``0 or 2 or 4``."""
    out: Any = values[0]
    for v in values[1:]:
        out = msg("or", a=out, b=v)
    return out


def semicolons(items: list[Any]) -> Any:
    """Items that hold commas themselves, one after the other: ``a; b; c``."""
    out: Any = items[0]
    for item in items[1:]:
        out = msg("semicolon", a=out, b=item)
    return out


def tile_name(tile: str) -> Msg | str:
    """A tile's name: ``L17`` -> "landscape tile 17", ``T05`` -> "Grain task tile 5"."""
    task = TILES[tile].task if tile in TILES else None
    if task:
        return msg("tilename.task", task=name("task", task), n=int(tile[1:]))
    if tile[:1] == "L" and tile[1:].isdigit():
        return msg("tilename.landscape", n=int(tile[1:]))
    return tile


def edge_runs(facing: str) -> Any:
    """An edge string such as ``FFFGGM`` in words: "forest N–SE, grain S–SW, meadow NW"."""
    if len(set(facing)) == 1:
        return msg("run.all", terrain=name("terrain", facing[0]))
    start = next(i for i in range(6) if facing[i] != facing[i - 1])
    runs: list[list[int]] = []
    for j in range(6):
        d = (start + j) % 6
        if runs and facing[runs[-1][-1]] == facing[d]:
            runs[-1].append(d)
        else:
            runs.append([d])
    parts = [
        msg("run.one", terrain=name("terrain", facing[r[0]]), a=name("dir", DIR_NAMES[r[0]])) if len(r) == 1
        else msg("run.span", terrain=name("terrain", facing[r[0]]), a=name("dir", DIR_NAMES[r[0]]),
                 b=name("dir", DIR_NAMES[r[-1]]))
        for r in sorted(runs)
    ]
    out: Any = parts[0]
    for part in parts[1:]:
        out = msg("comma", a=out, b=part)
    return out


def tile_text(tile: str, marker_id: str | None) -> Msg:
    """A one-line description such as "Grain task tile 5 (grain all round) with marker Grain 4"."""
    t = TILES[tile]
    e = edge_runs(t.edges)
    if t.task:
        out = msg("tile.task", tile=tile_name(tile), edges=e)
    elif t.flag is not None:
        out = msg("tile.flag", tile=tile_name(tile), edges=e, flag=name("flag", t.segments[t.flag][0]))
    else:
        out = msg("tile.plain", tile=tile_name(tile), edges=e)
    return msg("tile.with_marker", tile=out, marker=marker(marker_id)) if marker_id else out
