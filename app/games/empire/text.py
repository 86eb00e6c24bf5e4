"""Empire's text: every message the engine emits, in English, by id (see ``app.games.text``).

Ids are dotted by area: ``event.*`` (the log), ``effect.*`` (what a setback card did),
``combat.*``, ``maint.*``, ``admin.*``, ``route.*`` (parts of events), ``refuse.*`` and
``unreadable.*`` (refusals: the player reads them without the spec's error codes E001-E904;
``CODES`` puts each code back at the start of the English text of logs and ``str()``),
``prompt.*`` (titles, texts, forms, fields and choices), ``phase.*``, ``label.*``,
``board.*`` (the SVG) and the glossary: ``colour.*``, ``resource.*``, ``province.*``,
``card.*``, ``objective.*``, ``building.*``, ``mode.*``.

Notation tokens (GIVE, GET, PACT, LOSE-FOR, GOLD in an order...) are the order
language and stay as they are in every language.
"""

from __future__ import annotations

from typing import Any

from app.games.empire import data, text_pages
from app.games.text import TN, Catalogue, Msg, T, listing, msg, name

#: The spec's error code of each refusal that is not named after its code (``refuse.E413``).
CODES = {
    "refuse.rejected": "E007", "unreadable.rejected": "E007", "refuse.no_window": "E001",
    "refuse.wrong_window": "E001", "unreadable.wrong_window": "E001", "refuse.E701_one": "E701",
    "refuse.E806_troops": "E806", "unreadable.too_long": "E002", "unreadable.empty": "E002",
    "unreadable.unknown_window": "E002", "unreadable.mixed": "E002", "unreadable.other_window": "E002",
    "unreadable.line_window": "E002", "unreadable.not_an_order": "E002", "unreadable.bad_set": "E002",
    "unreadable.bad_line": "E002", "unreadable.tick": "E701", "unreadable.bad_value": "E002",
    "unreadable.negative": "E006", "unreadable.offer_incomplete": "E002",
}


def code_of(msg_id: str) -> str | None:
    """The spec's error code of a refusal message (``refuse.E413`` -> ``E413``), else None."""
    if msg_id in CODES:
        return CODES[msg_id]
    tail = msg_id.rpartition(".")[2]
    if msg_id.startswith(("refuse.E", "unreadable.E")) and tail[1:4].isdigit():
        return tail[:4]
    return None


class EmpireCatalogue(Catalogue):
    """Players read refusals in their terms; the English of logs and ``str()`` keeps the codes."""

    def english(self, text: Any) -> str:
        def coded(ctx: str, english: str) -> str:
            code = code_of(ctx)
            return f"{code} {english}" if code else english

        def coded_n(ctx: str, singular: str, plural: str, n: int) -> str:
            return coded(ctx, singular if n == 1 else plural)

        return self.render(text, coded, coded_n)


TEXT = EmpireCatalogue("empire", [
    T("title", "Empire: the Emperor's tribute"),
    T("seat.P1", "Player 1"),
    T("seat.P2", "Player 2"),
    T("seat.P3", "Player 3"),
    T("seat.P4", "Player 4"),
    T("turn.round", "round {round}, phase {phase}"),
    # ------------------------------------------------------------ glossary
    T("colour.BLUE", "BLUE"),
    T("colour.GREEN", "GREEN"),
    T("colour.YELLOW", "YELLOW"),
    T("colour.RED", "RED"),
    # a troop's target on the map (">R"): a colour in one or two letters, distinct in each language
    T("colour_short.BLUE", "B"),
    T("colour_short.GREEN", "G"),
    T("colour_short.YELLOW", "Y"),
    T("colour_short.RED", "R"),
    T("resource.GOLD", "Gold"),
    T("resource.WOOD", "Wood"),
    T("resource.STONE", "Stone"),
    T("resource.IRON", "Iron"),
    T("resource.FOOD", "Food"),
    T("resource.POP", "Pop"),
    # a resource counted ("2 Gold"): some languages inflect the name after a number
    T("resource_n.GOLD", "Gold"),
    T("resource_n.WOOD", "Wood"),
    T("resource_n.STONE", "Stone"),
    T("resource_n.IRON", "Iron"),
    T("resource_n.FOOD", "Food"),
    T("resource_n.POP", "Pop"),
    T("tribute.FREE", "free choice"),
    # a troop's colour, as an adjective before "troop" ("Blue troop 2"; agrees with the word for troop)
    T("troop_colour.BLUE", "Blue"),
    T("troop_colour.GREEN", "Green"),
    T("troop_colour.YELLOW", "Yellow"),
    T("troop_colour.RED", "Red"),
    # ... before "troop" or "troops" (by their number n)
    TN("troops_colour.BLUE", "Blue", "Blue"),
    TN("troops_colour.GREEN", "Green", "Green"),
    TN("troops_colour.YELLOW", "Yellow", "Yellow"),
    TN("troops_colour.RED", "Red", "Red"),
    T("province.1", "Bluehold"),
    T("province.2", "Westwood"),
    T("province.3", "Eastwood"),
    T("province.4", "Greenhold"),
    T("province.5", "Westmarch"),
    T("province.6", "Westgold"),
    T("province.7", "Eastgold"),
    T("province.8", "Eastmarch"),
    T("province.9", "Redhold"),
    T("province.10", "Westquarry"),
    T("province.11", "Eastquarry"),
    T("province.12", "Yellowhold"),
    T("building.INF", "Infrastructure"),
    T("building.WALL", "Wall"),
    T("building.HEAVY", "heavy troop"),
    T("mode.ATTACK", "Attack"),
    T("mode.DEFENCE", "Defence"),
    T("mode.CONQUEST", "Conquest"),
    T("mode_short.ATTACK", "ATK"),
    T("mode_short.DEFENCE", "DEF"),
    T("mode_short.CONQUEST", "CON"),
    T("game_mode.short", "short"),
    T("game_mode.long", "long"),
    T("card.S01", "Blight"),
    T("card.S02", "Termites"),
    T("card.S03", "Flooded quarry"),
    T("card.S04", "Rust"),
    T("card.S05", "Embezzlement"),
    T("card.S06", "Plague"),
    T("card.S07", "Bandits"),
    T("card.S08", "Desertion"),
    T("card.S09", "Fire"),
    T("card.S10", "Earthquake"),
    T("card.S11", "Fog of war"),
    T("card.S12", "Low morale"),
    T("card.S13", "Uprising"),
    T("card.S14", "Imperial levy"),
    T("card.S15", "Harsh winter"),
    T("card.S16", "Soldiers' arrears"),
    T("card.S17", "Scandal"),
    T("card.S18", "Good harvest"),
    T("card.S19", "Imperial pardon"),
    T("card.S20", "Quiet season"),
    T("card_text.S01", "Lose 2 Food."),
    T("card_text.S02", "Lose 2 Wood."),
    T("card_text.S03", "Lose 2 Stone."),
    T("card_text.S04", "Lose 2 Iron."),
    T("card_text.S05", "Lose 2 Gold."),
    T("card_text.S06", "Lose 2 Pop."),
    T("card_text.S07", "Lose 1 Wood, 1 Stone, 1 Iron and 1 Food."),
    T("card_text.S08", "Remove 1 of your troops (default loss rule)."),
    T("card_text.S09", "Destroy your lowest-numbered Infrastructure; if none, lose 2 Wood."),
    T("card_text.S10", "Destroy your lowest-numbered Wall; if none, lose 2 Stone."),
    T("card_text.S11", "This round your attack and conquest totals are -1."),
    T("card_text.S12", "This round your troops' defence totals are -1."),
    T("card_text.S13", "Your highest-numbered province without your troops or a centre becomes neutral."),
    T("card_text.S14", "This round you pay tribute twice."),
    T("card_text.S15", "This round your Maintenance costs +2 Food."),
    T("card_text.S16", "This round your Maintenance costs +2 Gold."),
    T("card_text.S17", "Every pact you signed this round is cancelled now."),
    T("card_text.S18", "Gain 2 Food."),
    T("card_text.S19", "You pay no tribute this round."),
    T("card_text.S20", "No effect."),
    # a card's text told of the player who revealed it (the log, the page): the cards say "you"
    T("told.S08", "{seat} removes 1 of its troops (default loss rule)."),
    T("told.S09", "{seat}'s lowest-numbered Infrastructure is destroyed; if none, {seat} loses 2 Wood."),
    T("told.S10", "{seat}'s lowest-numbered Wall is destroyed; if none, {seat} loses 2 Stone."),
    T("told.S11", "this round {seat}'s attack and conquest totals are -1."),
    T("told.S12", "this round the defence totals of {seat}'s troops are -1."),
    T("told.S13", "{seat}'s highest-numbered province without its troops or a centre becomes neutral."),
    T("told.S14", "this round {seat} pays tribute twice."),
    T("told.S15", "this round {seat}'s Maintenance costs +2 Food."),
    T("told.S16", "this round {seat}'s Maintenance costs +2 Gold."),
    T("told.S17", "every pact {seat} signed this round is cancelled now."),
    T("told.S19", "{seat} pays no tribute this round."),
    T("objective.O1", "Dominion"),
    T("objective.O2", "Fortress realm"),
    T("objective.O3", "Prosperity"),
    T("objective.O4", "Usurper"),
    T("objective.O5", "Warlord"),
    T("objective.O6", "Guild master"),
    T("objective.O7", "Great army"),
    T("objective.O8", "Heartland"),
    T("objective_text.O1", "You control at least 7 provinces."),
    T("objective_text.O2", "You control at least 4 provinces that each hold a Wall."),
    T("objective_text.O3", "You control at least 4 provinces that each hold Infrastructure."),
    T("objective_text.O4", "You control a province holding an administrative centre of another player."),
    T("objective_text.O5", "You hold at least 6 war-spoils markers."),
    T("objective_text.O6", "You hold at least 13 trade markers, earned with at least 2 different partners."),
    T("objective_text.O7", "You have at least 10 troops in play, at least 2 of them heavy."),
    T("objective_text.O8", "You control provinces 6 and 7 and at least 5 provinces in total."),
    # ------------------------------------------------------------ phases (turns of a round)
    T("phase.T1", "1 Tribute announcement"),
    T("phase.T3A", "3A Diplomacy: proposals"),
    T("phase.T3B", "3B Diplomacy: answers"),
    T("phase.T4", "4 Administration and strategy"),
    T("phase.T7A", "7A Maintenance: choice of losses"),
    T("phase.T7B", "7B Maintenance: neighbour's choice"),
    T("phase.T8", "8 Population routing"),
    T("phase.T9", "9 Tribute payment"),
    T("phase.over", "Game over"),
    # ------------------------------------------------------------ small pieces
    T("label.province", "{n} ({name})"),
    T("label.amount", "{n} {res}"),
    T("label.card", "{name}"),
    # a province's troops at the end of turn 4, grouped: "2 (Westwood): Blue troops 1 and 2 in Attack"
    T("label.at", "{n}: {groups}"),
    T("label.group", "{troops} in {mode}"),
    TN("label.troops.S", "{colour} troop {ns}", "{colour} troops {ns}"),
    TN("label.troops.H", "{colour} heavy troop {ns}", "{colour} heavy troops {ns}"),
    T("label.nothing", "nothing"),
    T("label.pair", "{a} + {b}"),
    T("label.troop.S", "{colour} troop {n}"),
    T("label.troop.H", "{colour} heavy troop {n}"),
    T("label.troop.NEW", "the new heavy troop"),
    T("join.space", "{a} {b}"),
    T("join.comma", "{a}, {b}"),
    T("join.semicolon", "{a}; {b}"),
    # ------------------------------------------------------------ events
    T("event.round_start", "Round {round} begins; {first} plays first. Turn 1: the tribute die "
                           "shows {roll}: tribute is {tribute}."),
    T("event.produce", "Turn 2: {seat} produces {what}."),
    T("event.offer_all", "{seat} offers {give} for {get} to everyone."),
    T("event.offer_to", "{seat} offers {give} for {get} to {to}."),
    T("event.pact_proposed", "{seat} proposes a pact to {to} for {province}."),
    T("event.offer_lacks", "{seat}'s offer ({give} for {get}) fails: {seat} lacks the resources."),
    T("event.offer_no_acceptor", "{seat}'s offer ({give} for {get}) fails: no one who accepted it holds "
                                 "{get} any more."),
    T("event.offer_not_taken", "{seat}'s offer ({give} for {get}) is not taken (declined or unanswered)."),
    T("event.trade", "Trade: {seat} gives {give} to {partner} for {get}."),
    T("event.offer_taken", "{seat}'s offer ({give} for {get}) was taken by {partner}."),
    T("event.pact", "Pact: {a} and {b} protect {p} and {q} from each other this round."),
    T("event.pact_declined", "{to} declined {seat}'s pact proposal for {province}."),
    T("event.order_unusable", "Your order could not be used ({why}); the default applies."),
    T("event.admin", "Turn 4: {seat} {actions}."),
    T("event.positions", "Turn 4 positions and modes: {positions}."),
    T("event.deck_shuffled", "The setback discard pile is shuffled into a new deck."),
    T("event.setback", "Turn 5: {seat} reveals {card}: {effect}"),
    T("event.defence_roll", "Combat in {province}: {seat} rolls defence {dice} against {attacker}."),
    T("event.attack", "{troop} attacks {seat} in {province}: {roll} = {atk} against defence {dfn} "
                      "({detail}): net {net}; {result}"),
    T("event.attack_mods", "{troop} attacks {seat} in {province}: {roll} {mods} = {atk} against "
                           "defence {dfn} ({detail}): net {net}; {result}"),
    T("event.conquest_defended", "{seat}'s conquest of {province} is skipped: defended."),
    T("event.conquest_pact", "{seat}'s conquest of {province} is skipped: pact."),
    T("event.conquest", "{seat} tries to conquer {province}: {roll} = {con} against local "
                        "population {local} {bonus} = {loc}: net {net}; {result}"),
    T("event.conquest_mods", "{seat} tries to conquer {province}: {roll} {mods} = {con} against "
                             "local population {local} {bonus} = {loc}: net {net}; {result}"),
    T("event.maintenance", "Turn 7: {seat} {food}, {gold}."),
    T("event.lose", "Turn 7A: {seat} removes {troops}."),
    T("event.lose_for", "Turn 7B: {seat} removes {troops} for {victim}."),
    T("event.default_loss", "Default loss rule: {seat} loses {troops}."),
    T("event.route", "Turn 8: {seat} routes population: {parts}."),
    T("event.tribute_is", "Turn 9: tribute is {tribute}."),
    T("event.pays_tribute", "{seat} pays tribute: {what}."),
    T("event.pardon", "{seat} pays no tribute (Imperial pardon)."),
    T("event.eliminated", "{seat} controls no province and is eliminated."),
    T("event.round_limit", "The round limit ({n}) is reached."),
    TN("event.game_over", "Game over: {who} wins.", "Game over: {who} win."),
    T("event.objectives", "{seat}'s objectives: {objectives}."),
    # what a setback card did
    T("effect.loses", "loses {what}."),
    T("effect.none_to_lose", "has no {what} to lose."),
    T("effect.no_troop", "no troop to remove."),
    T("effect.deserts", "{troop} deserts."),
    T("effect.destroyed", "the {building} in {province} is destroyed."),
    T("effect.no_building", "no {building}; loses {what}."),
    T("effect.no_building_none", "no {building}, and no {what} to lose."),
    T("effect.nothing", "nothing happens."),
    T("effect.neutral", "{province} becomes neutral."),
    T("effect.pacts_cancelled", "pacts with {seats} cancelled."),
    T("effect.no_pact", "no pact to cancel."),
    T("effect.gains", "gains {what}."),
    T("effect.none", "no effect."),
    # combat pieces
    T("combat.heavy", "+1 heavy"),
    T("combat.fog", "-1 fog"),
    TN("combat.detail", "dice {dice}, {n} in Defence", "dice {dice}, {n} in Defence"),
    T("combat.wall", "Wall"),
    T("combat.low_morale", "low morale"),
    T("combat.removed", "{troop} is removed and {seat} gains 1 war spoils."),
    T("combat.no_effect", "no effect."),
    T("combat.conquered", "{seat} now controls {province}."),
    T("combat.fails", "it fails."),
    # maintenance pieces
    T("maint.food", "pays {paid}"),
    T("maint.food_short", "pays {paid} of {due} Food and loses {lost}"),
    T("maint.gold", "pays {paid}"),
    TN("maint.gold_short", "pays {paid} of {due} Gold and must remove {n} troop",
       "pays {paid} of {due} Gold and must remove {n} troops"),
    T("maint.standing", "{text} (standing order: {troops} removed)"),
    # administration and routing pieces
    T("admin.buy", "buys {got} for {gold}"),
    T("admin.sell", "sells {sold} for {gold}"),
    T("admin.build", "builds {building} in {province}"),
    T("admin.build_heavy", "builds a heavy troop in {province} ({troop})"),
    T("admin.moves", "moves {moves}"),
    T("admin.move", "{troop} to {n}"),
    T("route.gold", "{n} into Gold"),
    TN("route.troops", "{n} into a new troop ({troops})", "{n} into new troops ({troops})"),
] + text_pages.ENTRIES)


# ---------------------------------------------------------------- helpers for the engine
def seat_name(colour: str) -> Msg:
    """A player by colour token (``BLUE``)."""
    return name("colour", colour)


def res_name(res: str) -> Msg:
    return name("resource", res)


def tribute_name(tribute: str | None) -> Msg | str:
    if tribute is None:
        return msg("board.no_tribute")
    return name("tribute", tribute) if tribute == "FREE" else name("resource", tribute)


def province(p: int) -> Msg:
    """``6 (Westgold)``: the map's number (used in orders) beside the province's name."""
    return msg("label.province", n=int(p), name=name("province", str(p)))


def amount(n: int, res: str) -> Msg:
    return msg("label.amount", n=int(n), res=name("resource_n", res))


def amounts(pairs: Any) -> dict[str, list[Any]]:
    """``2 Food, 1 Pop and 2 Gold`` from ``[(res, n), ...]`` or a ``{res: n}`` dict."""
    items = pairs.items() if isinstance(pairs, dict) else pairs
    return listing([amount(n, r) for r, n in items])


def troop(tid: str, kind: str | None = None) -> Msg:
    """``Blue troop 1`` / ``Blue heavy troop 2`` from the rulebook's id ``B-S1`` / ``B-H2`` (kept as
    ``id`` for a tooltip); ``NEW`` is the heavy troop built this turn."""
    if tid == "NEW":
        return msg("label.troop.NEW")
    colour = data.LETTER_COLOUR[tid[0]]
    return msg(f"label.troop.{kind or tid[2]}", id=tid, colour=name("troop_colour", colour), n=int(tid[3:]))


def troop_group(colour: str, kind: str, ns: list[int]) -> Msg:
    """Troops of one player and kind by their numbers: ``Blue troops 1, 2 and 4``."""
    return msg(f"label.troops.{kind}", colour=msg(f"troops_colour.{colour}", n=len(ns)), n=len(ns), ns=listing(ns))


def troops_by_group(ids: list[str]) -> Any:
    """Troops (the rulebook's ids, ``NEW`` last) grouped by player and kind, in words, as a list."""
    groups: dict[tuple[str, str], list[int]] = {}
    for tid in ids:
        if tid != "NEW":
            groups.setdefault((tid[0], tid[2]), []).append(int(tid[3:]))
    told = [troop_group(data.LETTER_COLOUR[letter], kind, sorted(ns)) for (letter, kind), ns in groups.items()]
    return listing(told + ([msg("label.troop.NEW")] if "NEW" in ids else []))


def positions(troops: dict[str, dict[str, Any]]) -> Any:
    """Where the troops stand and how they fight, by province, then by player, kind and mode:
    ``2 (Westwood): Blue troops 1 and 2 in Attack, Red troop 3 in Defence; 5 (...): ...``."""
    by_prov: dict[int, dict[tuple[str, str, str, str], list[int]]] = {}
    for tid, t in sorted(troops.items(), key=lambda x: (x[1]["province"], x[0][0], x[0][2], int(x[0][3:]))):
        key = (tid[0], tid[2], t["mode"], t.get("target") or "")
        by_prov.setdefault(t["province"], {}).setdefault(key, []).append(int(tid[3:]))
    places = []
    for p, groups in sorted(by_prov.items()):
        told = []
        for (letter, kind, mode, target), ns in groups.items():
            how: Msg = name("mode", mode)
            if target:
                how = msg("label.mode_target", mode=how, seat=seat_name(target))
            who = troop_group(data.LETTER_COLOUR[letter], kind, ns)
            told.append(msg("label.group", troops=who, mode=how))
        places.append(msg("label.at", n=province(p), groups=joined(told, "join.comma")))
    return joined(places, "join.semicolon")


def troop_list(ids: list[str]) -> dict[str, list[Any]]:
    """Troops by name, as a list (``Blue troop 1 and Blue heavy troop 2``)."""
    return listing([troop(t) for t in ids])


def offer_ref(oid: str) -> dict[str, Any]:
    """The arguments naming an offer or a pact by its id alone (``B-O2``: ``n=2, seat=BLUE``)."""
    tail = oid[3:]
    return {"id": oid, "seat": seat_name(data.LETTER_COLOUR[oid[0]]), "n": int(tail) if tail.isdigit() else 0}


def card_told(code: str, colour: str) -> Msg:
    """What a setback card (``S12`` or an instance ``S12-1``) does, told of the player who revealed it."""
    kind = code[:3]
    if f"told.{kind}" in TEXT:
        return msg(f"told.{kind}", seat=seat_name(colour))
    return name("card_text", kind)


def card(code: str) -> Msg:
    """A setback card instance ``S05-2`` by its name (the code is the rulebook's, not the player's)."""
    return msg("label.card", code=code, name=name("card", code[:3]))


def objective(code: str) -> Msg:
    return msg("label.card", code=code, name=name("objective", code))


def joined(parts: list[Any], how: str = "join.space") -> Any:
    """Parts joined left to right by ``{a} {b}`` (``join.comma``, ``join.semicolon``)."""
    if not parts:
        return ""
    out = parts[0]
    for part in parts[1:]:
        out = msg(how, a=out, b=part)
    return out


__all__ = ["TEXT", "CODES", "code_of", "troop", "seat_name", "res_name", "tribute_name", "province", "amount",
           "amounts", "card", "objective", "joined", "troop_list", "offer_ref", "card_told", "positions",
           "troop_group", "troops_by_group"]
