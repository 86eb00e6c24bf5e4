"""The bots' arena: each game's bot against the random-legal-order bot, itself and its previous version.

Usage: python bench/arena.py [--quick] [--games N] [--vs-random N] [--vs-previous N] [--previous REV]
                             [--only SLUG[,SLUG]] [--jobs J] [--seeds NAME]

For every game and player count it plays

- the bot in one seat against random legal orders in the others, the bot's seat moving round
  the table from game to game: the bot's win rate, with its 95% confidence interval (Wilson);
- the bot in every seat: each seat position's win rate (the position the rules give a seat:
  Empire's drawn seat 1..n, Conquest's drawn turn order, the Duel's and Dual Powers' seats),
  which shows where the rules favour a seat;
- the bot against its previous version: the current bot in each seat position in turn, the
  previous one in the others; the current bot's win rate.  The previous version is the bot as it
  was before its latest change (the parent of the last commit that changed
  ``app/games/<slug>/bot*.py``; HEAD's when the bot has uncommitted changes) or ``--previous
  REV``; it plays from that revision's own code in a child process (arena_previous.py).  Outside
  a git checkout the arena says the previous version is not available and plays the rest;
- Dual Powers solo: the bot as the player against the Opposition at difficulty 1 (and the
  previous version as the player).

It also measures what the goals name: the Duel bot's average score, and how often Empire's
bot pays its upkeep in full and which kinds of order it uses, and how often the holders of
each of Empire's objectives win against the average holder (goal: 0.5x to 1.5x).  Bots decide from their seat's
view and prompt (``bot_order``), as on the site.  Seeds are fixed, so a run is repeatable;
``--seeds NAME`` plays other games (their seeds start with NAME instead of ``arena``), which
checks a figure on games that no change to a bot was chosen on.
The last line is the headline; the exit status is 1 when a goal is missed ("MISSED").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import arena_previous as previous  # noqa: E402
from arena_stats import Report, rate  # noqa: E402

from app.games import get_rules  # noqa: E402
from app.games.base import bot_order, step_rng  # noqa: E402
from app.games.driver import advance, start  # noqa: E402


@dataclass(frozen=True)
class Table:
    """One game and player count."""

    slug: str
    label: str
    options: dict[str, Any]
    solo: bool = False


TABLES = [
    Table("duel", "Duel", {}),
    Table("dual_powers", "Dual Powers", {}),
    Table("dual_powers", "Dual Powers solo d1", {"solo": True, "difficulty": 1}, solo=True),
    *[Table("conquest", f"Conquest {n}p", {"players": n}) for n in range(2, 7)],
    Table("conquest", "Conquest 2p balance", {"players": 2, "balance": True}),
    *[Table("empire", f"Empire {n}p", {"players": n, "mode": "short"}) for n in range(2, 5)],
]
QUICK_TABLES = ["Duel", "Dual Powers", "Dual Powers solo d1", "Conquest 2p", "Empire 2p"]
MAX_STEPS = 20000


# --------------------------------------------------------------------------- one game


@dataclass
class Played:
    """What one game tells: each seat's share of the win and position, plus the measures."""

    share: dict[str, float]
    position: dict[str, int]
    score: dict[str, float]
    upkeep: Counter = field(default_factory=Counter)  # seat -> player-rounds paid / short
    kinds: Counter = field(default_factory=Counter)  # Empire: order kinds the bot used
    current: str = ""  # against the previous version: the current bot's seat
    faults: Counter = field(default_factory=Counter)  # the previous bot's failures, by message
    objectives: dict[str, list[str]] = field(default_factory=dict)  # Empire: seat -> objectives dealt


def winners(outcome: list[dict[str, Any]]) -> list[str]:
    """Conquest names winners (none after some armistices), Dual Powers solo says "won", else rank 1."""
    if any("winner" in r for r in outcome):
        return [r["seat"] for r in outcome if r.get("winner")]
    if any("won" in r for r in outcome):
        return [r["seat"] for r in outcome if r.get("won")]
    return [r["seat"] for r in outcome if r["rank"] == 1]


def positions(state: dict[str, Any], seats: list[str]) -> dict[str, int]:
    """Seat -> position at the table as the rules drew it (0 = first)."""
    order = state.get("order") if isinstance(state.get("order"), list) else None
    order = order or (state.get("seats") if isinstance(state.get("seats"), list) else None) or seats
    return {s: order.index(s) if s in order else seats.index(s) for s in seats}


def empire_line_kind(line: dict[str, Any]) -> str:
    """An Empire order line's kind: its op, MARKET split into BUY and SELL."""
    op = str(line.get("op", "?"))
    return f"{op}_{line['side']}" if op == "MARKET" else op


#: Empire's kinds of order a bot chooses to write (the LOSE, LOSE_FOR and PAY windows open
#: only after a shortfall, which a good bot avoids, so they are counted but not required).
EMPIRE_KINDS = ["OFFER", "PACT", "ACCEPT_OFFER", "DECLINE_OFFER", "ACCEPT_PACT", "DECLINE_PACT", "MARKET_BUY",
                "MARKET_SELL", "BUILD", "MOVE", "MODE", "LOSSES", "ROUTE_GOLD", "ROUTE_TROOPS", "TRIBUTE_FREE"]


def empire_upkeep(events: list[dict[str, Any]], state: dict[str, Any]) -> Counter:
    """Per seat, the player-rounds whose Maintenance (turn 7) was paid in full or fell short."""
    seat_of = {f"colour.{c}": s for s, c in state["colour"].items()}
    out: Counter = Counter()

    def ids(m: Any) -> list[str]:
        if isinstance(m, dict):
            return [str(m.get("msg", ""))] + [i for v in m.values() for i in ids(v)]
        if isinstance(m, list):
            return [i for v in m for i in ids(v)]
        return []

    for e in events:
        text = e.get("text")
        if isinstance(text, dict) and text.get("msg") == "event.maintenance":
            seat = seat_of.get(text["args"]["seat"].get("msg", ""))
            short = any(i.endswith("_short") for i in ids(text["args"]))
            out[(seat, "short" if short else "paid")] += 1
    return out


def random_player_order(rules: Any, state: dict[str, Any], seat: str, rng: Any) -> Any:
    """A random legal order for a random player, who never abandons its seat: an abandoned seat is
    played by the game's AI from then on (Conquest's ``ABANDON``), so the bot would be measured
    against itself, not against random play.  Another order is drawn instead, from the same dice."""
    while True:
        order = rules.random_order(state, seat, rng)
        if not (isinstance(order, dict) and order.get("type") == "ABANDON"):
            return order


def play(table: Table, seed: str, kind: dict[str, str] | None, old: str = "", current_at: int | None = None) -> Played:
    """Play one game: ``kind`` maps seats to "bot", "random" or "previous" (None: every seat a bot);
    ``old`` is the directory of the previous version's code; ``current_at``, a seat position:
    the bot there, the previous version in the other seats."""
    rules = get_rules(table.slug)
    game = start(rules, table.options, seed)
    seats = list(game.seats)
    if current_at is not None:
        drawn = positions(game.state, seats)
        kind = {s: "bot" if drawn[s] == current_at else "previous" for s in seats}
    kinds: Counter = Counter()
    faults: Counter = Counter()
    while rules.outcome(game.state) is None and len(game.steps) < MAX_STEPS:
        step = len(game.steps) + 1
        orders = {}
        for seat in sorted(rules.owed(game.state)):
            rng = step_rng(seed, step, f"bot:{seat}")
            if kind is None or kind[seat] == "bot":
                orders[seat] = bot_order(rules, game.state, seat, rng)
                if table.slug == "empire":
                    kinds.update(empire_line_kind(line) for line in orders[seat].get("lines", []))
            elif kind[seat] == "previous":
                # the same rng as the current bot's (step_rng's seed), so HEAD's bot plays alike
                orders[seat] = previous.order_or_random(rules, game.state, seat, f"{seed}:{step}:bot:{seat}", old,
                                                        faults)
            else:
                orders[seat] = random_player_order(rules, game.state, seat, rng)
        advance(rules, game, orders)
    outcome = rules.outcome(game.state) or []
    won = winners(outcome)
    share = {s: (1 / len(won) if s in won else 0.0) for s in seats}
    score = {r["seat"]: float(r.get("score", 0)) for r in outcome}
    upkeep = empire_upkeep(game.events, game.state) if table.slug == "empire" else Counter()
    current = next((s for s in seats if kind and kind[s] == "bot"), "")
    dealt = {s: list(p["objectives"]) for s, p in game.state["players"].items()} if table.slug == "empire" else {}
    return Played(share, positions(game.state, seats), score, upkeep, kinds, current=current, faults=faults,
                  objectives=dealt)


# --------------------------------------------------------------------------- runs


def _job(args: tuple[Table, str, dict[str, str] | None]) -> tuple[Played, dict[str, str] | None]:
    table, seed, kind = args
    return play(table, seed, kind), kind


def _previous_job(args: tuple[Table, str, dict[str, str] | None, str, int | None]) -> tuple[Played, Any]:
    table, seed, kind, old, current_at = args
    return play(table, seed, kind, old, current_at), current_at


def run_many(jobs: list[Any], workers: int, job: Any = _job) -> list[tuple[Played, Any]]:
    if workers <= 1:
        return [job(j) for j in jobs]
    from multiprocessing import Pool

    with Pool(workers) as pool:
        return pool.map(job, jobs, chunksize=4)


def arena(table: Table, games: int, vs_random: int, workers: int, report: Report,
          prev: previous.Previous | None = None, seeds: str = "arena") -> None:
    rules = get_rules(table.slug)
    seats = rules.seats({**rules.default_options(), **table.options})
    report.say(f"{table.label} ({len(seats)} seat{'s' if len(seats) > 1 else ''})")
    old = ready(table, prev, report) if prev else ""
    if table.solo:
        for who, n in [("bot", games), ("random", games)] + ([("previous", prev.games)] if old and prev else []):
            done = run_many([(table, f"{seeds}-{table.label}-{i}", {seats[0]: who}, old, None) for i in range(n)],
                            workers, _previous_job)
            wins = sum(p.share[seats[0]] for p, _ in done)
            report.say(f"  {who} as the player: won {rate(wins, n)} of {n}")
            if who == "previous":
                say_faults(done, report)
            if who == "bot":
                report.goal("solo difficulty 1 won by the bot >= 50%", wins / max(n, 1) >= 0.5,
                            f"{100 * wins / max(n, 1):.1f}%")
        return
    if vs_random:
        bot_against_random(table, seats, vs_random, workers, report, seeds)
    if games:  # the seat positions and the goals measured on the bot's own play (none over no games)
        self_play(table, seats, games, workers, report, seeds)
    if old and prev:
        against_previous(table, seats, prev.games, old, workers, report, seeds)


def bot_against_random(table: Table, seats: list[str], vs_random: int, workers: int, report: Report,
                       seeds: str = "arena") -> None:
    """The bot in one seat, random legal orders in the others; the bot's seat moves round the table."""
    jobs = []
    for i in range(vs_random):
        bot_seat = seats[i % len(seats)]
        jobs.append((table, f"{seeds}-{table.label}-r{i}", {s: "bot" if s == bot_seat else "random" for s in seats}))
    done = run_many(jobs, workers)
    wins = sum(p.share[s] for p, kind in done for s in seats if kind and kind[s] == "bot")
    fair = 1 / len(seats)
    report.say(f"  bot vs random: the bot wins {rate(wins, vs_random)} of {vs_random}"
               f" (a fair share is {100 * fair:.0f}%)")
    report.goal(f"{table.label} bot beats random >= 95%", wins / max(vs_random, 1) >= 0.95,
                f"{100 * wins / max(vs_random, 1):.1f}%")


def self_play(table: Table, seats: list[str], games: int, workers: int, report: Report, seeds: str = "arena") -> None:
    """The bot in every seat: each position's win rate, and the goals measured on the bot's play."""
    done = run_many([(table, f"{seeds}-{table.label}-s{i}", None) for i in range(games)], workers)
    by_position: dict[int, float] = defaultdict(float)
    for p, _ in done:
        for s in seats:
            by_position[p.position[s]] += p.share[s]
    undecided = games - sum(by_position.values())
    cells = ", ".join(f"{k + 1}: {rate(by_position[k], games).strip()}" for k in range(len(seats)))
    report.say(f"  bot vs bot, {games} games, win rate by seat position: {cells}"
               + (f"; no winner in {undecided:.0f}" if undecided >= 0.5 else ""))
    if table.slug == "duel":
        scores = [p.score[s] for p, _ in done for s in seats]
        avg = sum(scores) / max(len(scores), 1)
        report.goal("Duel bot averages >= 85 points", avg >= 85, f"{avg:.1f} points")
    if table.slug == "empire":
        paid = sum(n for p, _ in done for (_, how), n in p.upkeep.items() if how == "paid")
        short = sum(n for p, _ in done for (_, how), n in p.upkeep.items() if how == "short")
        share = paid / max(paid + short, 1)
        report.goal(f"{table.label} upkeep paid >= 90% of player-rounds", share >= 0.9,
                    f"{100 * share:.1f}% of {paid + short}")
        used: Counter = Counter()
        for p, _ in done:
            used.update(p.kinds)
        missing = [k for k in EMPIRE_KINDS if not used[k]]
        report.say("  order kinds used: " + ", ".join(f"{k} {used[k]}" for k in sorted(used)))
        report.goal(f"{table.label} bot uses every kind of order", not missing,
                    "all used" if not missing else "never " + ", ".join(missing))
        empire_objectives(table, [p for p, _ in done], report)


#: Empire's objectives are balanced when each one's holders win between these multiples of the average.
OBJECTIVE_BALANCE = (0.5, 1.5)


def objective_win_rates(played: list[Played]) -> dict[str, tuple[float, int]]:
    """Objective -> (the wins of the seats dealt it, how many seats were dealt it)."""
    out: dict[str, tuple[float, int]] = {}
    for p in played:
        for seat, objs in p.objectives.items():
            for o in objs:
                wins, n = out.get(o, (0.0, 0))
                out[o] = (wins + p.share[seat], n + 1)
    return dict(sorted(out.items()))


def empire_objectives(table: Table, played: list[Played], report: Report) -> None:
    """Win rate of each objective's holders against the average holder's (bot in every seat)."""
    rates = objective_win_rates(played)
    held = sum(n for _, n in rates.values())
    average = sum(w for w, _ in rates.values()) / max(held, 1)
    report.say("  win rate by objective held (x the average holder's):")
    worst = []
    for o, (wins, n) in rates.items():
        ratio = wins / n / average if average and n else 0.0
        report.say(f"    {o}: {rate(wins, n)} of {n}, {ratio:.2f}x")
        if not OBJECTIVE_BALANCE[0] <= ratio <= OBJECTIVE_BALANCE[1]:
            worst.append(f"{o} {ratio:.2f}x")
    low, high = OBJECTIVE_BALANCE
    report.goal(f"{table.label} objectives win within {low}x-{high}x the average", bool(rates) and not worst,
                "all within" if not worst else "outside: " + ", ".join(worst))


def ready(table: Table, prev: previous.Previous, report: Report) -> str:
    """The previous bot's code for ``table``, once it has answered a first prompt; "" when it cannot play."""
    rules = get_rules(table.slug)
    game = start(rules, table.options, f"arena-{table.label}-probe")
    seat = sorted(rules.owed(game.state))[0]
    old, line = prev.ready(table.slug, rules.view(game.state, seat), rules.owed(game.state)[seat])
    report.say("  " + line)
    return old


def against_previous(table: Table, seats: list[str], games: int, old: str, workers: int, report: Report,
                     seeds: str = "arena") -> None:
    """The current bot at each seat position in turn, its previous version in the other seats."""
    jobs = [(table, f"{seeds}-{table.label}-p{i}", None, old, i % len(seats)) for i in range(games)]
    done = run_many(jobs, workers, _previous_job)
    wins = sum(p.share[p.current] for p, _ in done)
    by_position: dict[int, float] = defaultdict(float)
    for p, at in done:
        by_position[at] += p.share[p.current]
    cells = ", ".join(f"{k + 1}: {rate(by_position[k], sum(1 for _, at in done if at == k)).strip()}"
                      for k in range(len(seats)))
    report.say(f"  current vs previous: wins {rate(wins, games).strip()} of {games}"
               f" (a fair share is {100 / len(seats):.0f}%); by the current bot's seat position: {cells}")
    say_faults(done, report)


def say_faults(done: list[tuple[Played, Any]], report: Report) -> None:
    faults: Counter = Counter()
    for p, _ in done:
        faults.update(p.faults)
    if faults:
        first, _ = faults.most_common(1)[0]
        report.say(f"  the previous bot failed {sum(faults.values())} times (a random legal order instead),"
                   f" most often: {first}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a few dozen games in all (CI smoke)")
    ap.add_argument("--games", type=int, default=1000, help="bot-vs-bot games per table (seat positions)")
    ap.add_argument("--vs-random", type=int, default=None, help="bot-vs-random games per table (default: --games)")
    ap.add_argument("--vs-previous", type=int, default=None,
                    help="games against the bot's previous version per table (default: --games; 0: none)")
    ap.add_argument("--previous", metavar="REV", default=None,
                    help="the git revision of the previous version (default: per game, the bot before its last change)")
    ap.add_argument("--only", default="", help="comma-separated game slugs or table labels")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the games are independent)")
    ap.add_argument("--seeds", default="arena",
                    help="the name the games' seeds start with (default: arena); another name plays other games, "
                         "to check a figure on games no change was tuned on")
    args = ap.parse_args(argv)
    tables = TABLES
    games, vs_random = args.games, args.vs_random if args.vs_random is not None else args.games
    vs_previous = args.vs_previous if args.vs_previous is not None else args.games
    if args.quick:
        tables = [t for t in TABLES if t.label in QUICK_TABLES]
        games, vs_random = 4, 4
        vs_previous = 2 if args.vs_previous is None else args.vs_previous  # each seat position once
    if args.only:
        wanted = {w.strip() for w in args.only.split(",")}
        tables = [t for t in tables if t.slug in wanted or t.label in wanted]
    report = Report()
    prev = previous.Previous(ROOT, args.previous, vs_previous) if vs_previous else None
    if prev and not previous.is_checkout(ROOT):
        report.say("previous version: not available (not a git checkout)")
        prev = None
    try:
        for table in tables:
            arena(table, games, vs_random, args.jobs, report, prev, args.seeds)
    finally:
        if prev:
            prev.checkouts.close()
    met = sum(ok for _, ok in report.goals)
    report.say(f"arena: {met} of {len(report.goals)} goals met")
    return 0 if met == len(report.goals) else 1


if __name__ == "__main__":
    sys.exit(main())
