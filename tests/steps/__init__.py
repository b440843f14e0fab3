"""Step definitions for the Gherkin rulebooks in `features/`.

The modules are pytest plugins, registered by `tests/test_features.py` through
`pytest_plugins`, so their step definitions (and the `game` fixture) are visible
to the scenarios bound there:

- `world`: the `game` fixture (the table being played) and the parsers for
  seats, cards, card lists and options;
- `setup_steps`: Given steps (the game, its options, the starting player, deals);
- `play_steps`: When steps (leads, plays, whole tricks, one-card rounds, revival decisions);
- `check_steps`: Then steps (legal moves, refusals and their codes, takers, the
  Trick Marker, scores, marks, eliminations, winners, dealer and leader);
- `error_steps`: steps about bad rules, bad notation, bad deals and saved games;
- `hooks`: `pytest_bdd_step_error`, which names the feature file and line of a failing step.

Every step uses only the public API (`import cucumber_rules as cr`).
"""
