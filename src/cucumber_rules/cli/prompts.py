"""`play` at the table: what the human sees, what they may type, and the library's words addressed to them."""

from __future__ import annotations

import typer
from rich.console import Console

import cucumber_rules as cr
from cucumber_rules.narrate import barred, marker_note, to_you

from .common import shown

# --------------------------------------------------------------------------- play: the table


def _suited(rules: cr.Rules) -> bool:
    return any(c.suit is not None for c in cr.DECKS.get(rules.deck, ()))


def _card_hint(rules: cr.Rules) -> str:
    """How the cards of the deck in play are written."""
    deck = cr.DECKS.get(rules.deck, ())
    if _suited(rules):
        return "cards are written like 7H, 10S, QD or AS"
    ranks = [c.rank for c in deck]
    return f"cards are numbers {min(ranks)}..{max(ranks)}" if ranks else "cards are written like 7 or 42"


def _help(rules: cr.Rules) -> str:
    example = "QS, 10H (or TH), A♠" if _suited(rules) else "7 or 12"
    return (
        f"Type a card to play it (e.g. {example}); when you have one card to play, Enter plays it. "
        "Commands: '?' or 'help' (this help), 'hand' (show the table again), "
        "'quit' or Ctrl-D (stop; a saved game can be resumed with --resume)."
    )


def _show_view(out: Console, state: cr.State, seat: int) -> None:
    v = cr.view(state, seat)
    trick_no = len(v.tricks) + 1
    game = cr.game_of(v)
    unit = game.unit.capitalize()
    out.print(
        f"\n[bold]{unit} {v.round_number}, trick {trick_no}[/bold] · your turn, {shown(v.players[seat])}"
    )
    table_cards = ", ".join(f"{shown(v.players[p.seat])} {p.card}" for p in v.trick) or "nothing yet"
    line = f"On the table: {table_cards}"
    extra = game.words.describe_table(v)
    if extra:
        line += " " + shown(f"[{extra}]")  # (all of it escaped: rich would read "[revealed ...]" as a tag)
    out.print(line)
    others = " · ".join(f"{shown(v.players[s])} {n}" for s, n in enumerate(v.hand_sizes) if s != v.seat and n)
    if others:
        out.print(f"Cards in hand: {others}")
    out.print(_scores(v))
    out.print("Your hand: [bold]" + " ".join(str(c) for c in v.hand) + "[/bold]")
    note = marker_note(v)
    if note:
        out.print(shown(note))
    out.print("You may play: " + " ".join(_plays(v)))
    for line in barred(state, seat):
        out.print(shown(line))


def _scores(v: cr.PlayerView) -> str:
    """`Scores: Ann 3 · Bo 12`, names escaped for rich."""
    return "Scores: " + " · ".join(f"{shown(name)} {t}" for name, t in zip(v.players, v.totals, strict=True))


def _plays(v: cr.PlayerView) -> list[str]:
    """The distinct cards the viewer may play, in order."""
    return list(dict.fromkeys(str(a.card) for a in v.legal if isinstance(a, cr.Play)))


def _ask(out: Console, prompt: str, default: str | None = None) -> str | None:
    """A line of input (Enter alone gives `default`, else ""); None at the end of input (Ctrl-D) or on Ctrl-C.

    An empty line comes back to the caller, never asked again in silence: the caller says what is wanted.
    """
    try:
        if default is None:
            return str(typer.prompt(prompt, default="", show_default=False, prompt_suffix=": "))
        return str(typer.prompt(prompt, default=default, prompt_suffix=": "))
    except typer.Abort:
        out.print()  # the prompt is still on the line: end it
        return None


def ask_pause(out: Console, prompt: str) -> str | None:
    """A line of input after `prompt` (Enter alone gives ""); None at the end of input or on Ctrl-C."""
    try:
        return str(typer.prompt(prompt, default="", show_default=False, prompt_suffix=" "))
    except typer.Abort:
        out.print()
        return None


def human_action(out: Console, state: cr.State, seat: int) -> cr.Action | None:
    """Ask until the player gives a legal action; None means stop."""
    v = cr.view(state, seat)
    decisions = [a for a in v.legal if isinstance(a, cr.Decision)]
    if decisions:
        game = cr.game_of(v)
        answers = game.words.decision_answers(v)
        keys = list(dict.fromkeys(k for k in answers if len(k) == 1) or answers)
        question = f"\n[bold]{shown(game.words.decision_prompt(v))}[/bold] {_scores(v)}"
        out.print(question)
        while True:
            answer = _ask(out, f"Your choice [{'/'.join(keys)}]")
            if answer is None:
                return None
            word = answer.strip().lower()
            if word in answers:
                return answers[word]
            if word in ("q", "quit", "exit"):
                return None
            if word in ("hand", "table", "show"):
                out.print(question)
                continue
            # ('?' and 'help' get this answer too: it is the whole help at this prompt.)
            answers_text = shown(" or ".join(keys))
            out.print(f"Answer {answers_text}; 'hand' shows the question again; 'quit' or Ctrl-D stops.")
    _show_view(out, state, seat)
    plays = _plays(v)
    only = plays[0] if len(plays) == 1 else None
    deck = frozenset(cr.DECKS.get(v.rules.deck, ()))
    while True:
        answer = _ask(out, "Your card", default=only)
        if answer is None:
            return None
        word = answer.strip()
        low = word.lower()
        if low in ("quit", "exit"):  # (not 'q': a Queen typed without its suit is explained, not obeyed)
            return None
        if low in ("?", "help", "h"):
            out.print(_help(v.rules))
            continue
        if not low:  # (Enter with several cards to choose from: say so, rather than ask again in silence)
            out.print(f"Type the card to play: you may play {' '.join(plays)} ('?' for help).")
            continue
        if low in ("hand", "table", "show"):
            _show_view(out, state, seat)
            continue
        try:
            played = cr.card(word)
        except cr.InvalidNotationError:
            played = None
        if played is None or (deck and played not in deck):
            hint = f"{word!r} is not a card of this deck: {_card_hint(v.rules)}"
            out.print(f"[red]{shown(hint)}[/red]")
            continue
        action = cr.Play(seat, played)
        illegal = cr.check(state, action)
        if illegal is None:
            return action
        out.print(f"[red]{shown(to_you(illegal.message, seat, state.players))}[/red]")
