Feature: Errors and their codes
  Whatever goes wrong, the library says so with an error of its own, and nothing is left half
  done: a refused action leaves the game exactly as it was. Every error is a `RulesError`.

  An action the rules forbid raises `IllegalMoveError`. Its `code` is stable, so a program can
  react to it, and its message says which rule forbids the move and what would be allowed. The
  same error can be obtained without raising it, from `check`. Rules that cannot be played raise
  `InvalidRulesError` naming the option at fault, text that is not a card raises
  `InvalidNotationError`, and a saved game that was damaged or tampered with raises
  `InvalidStateError` naming the bad field. Arguments of the wrong type raise Python's own
  `TypeError`.

  Each scenario below checks both `check` and `apply`, and that the refused action changed nothing.
  The codes of the individual games (`must-follow`, `must-play-lowest`, `cannot-lead-five`,
  `must-follow-marker`) are shown with their rules on the game pages as well.

  Rule: Every illegal action has a stable code

    Background:
      Given a game of agurk for 3 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | 2C 5H 8D 9H JC KD AS  |
        | 1    | 3C 4D 7S 10S QH KS AH |
        | 2    | 2D 6C 6H 9C JD QS KC  |

    Scenario: Playing out of turn
      Then playing 3C by seat 1 is refused with "not-your-turn"
      And the explanation mentions "seat 0's turn"

    Scenario: Playing a card you do not hold
      Then playing 3C by seat 0 is refused with "not-in-hand"
      And the explanation mentions "not in their hand" and "2C, 5H, 8D"

    Scenario: Playing a card of another deck
      Then playing 7 by seat 0 is refused with "not-in-hand"
      And the explanation mentions "not a card of the standard-52 deck" and "2C, 5H, 8D"

    Scenario: Breaking the ladder rule
      When seat 0 leads 9H
      Then playing 4D by seat 1 is refused with "must-follow"
      And the explanation mentions "must play 9 or higher, or the lowest card 3C"

    Scenario: Dealing in the middle of a round
      When seat 0 leads 9H
      Then dealing these hands is refused with "unexpected-deal":
        | seat | hand                  |
        | 0    | 2S 3S 4S 5S 6S 7S 8S  |
        | 1    | 2H 3H 4H 5H 6H 7H 8H  |
        | 2    | 9S 10S JS QS KS AS 9D |

    Scenario: A decision nobody has to take
      Then seat 0 buying back in is refused with "no-decision"

    Scenario: An illegal action in a replayed record names its position
      Action 0 is the deal and action 1 seat 0's lead; the action added after them is action 2.

      When seat 0 leads 9H
      Then replaying the game's record followed by seat 0 playing 2C is refused at action 2 with "not-your-turn"

  Rule: Illegal actions outside a round, and the codes of each game

    Scenario: Playing before the deal
      Given a game of gurka for 2 players
      Then playing AS by seat 0 is refused with "deal-expected"

    Scenario: Any action once the match is over
      Given a game of gurka for 2 players with hand size 1 and threshold 20
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | pays   |
        | 1     | 9S     | 2C     | seat 0 |
      Then the match is not over
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | pays   |
        | 2     | AS     | KS     | seat 0 |
      Then seat 0 is eliminated
      And the match is over
      And playing 3C by seat 1 is refused with "game-over"
      And seat 0 buying back in is refused with "game-over"
      And drawing a random deal is refused with "game-over"
      And dealing these hands is refused with "game-over":
        | seat | hand |
        | 0    | 2D   |
        | 1    | 3D   |

    Scenario: A decision is due before anything else
      Given a game of gurka for 3 players with hand size 1, threshold 10 and revival on
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | QS     | 2C     | 3C     |
      Then seat 0 must decide whether to buy back in
      And playing 4C by seat 0 is refused with "decision-expected"

    Scenario: Gurka's led ace
      Given a game of gurka for 2 players with hand size 2
      And the cards are dealt:
        | seat | hand  |
        | 0    | 2C AS |
        | 1    | 3C KS |
      When seat 0 leads AS
      Then playing KS by seat 1 is refused with "must-play-lowest"
      And the explanation mentions "lowest card 3C"

    Scenario: Catastrophe's 5-cucumber lead and Trick Marker
      Given a game of catastrophe for 3 players with hand size 2
      And the cards are dealt:
        | seat | hand  |
        | 0    | 5 20  |
        | 1    | 30 40 |
        | 2    | 10 25 |
      Then playing 5 by seat 0 is refused with "cannot-lead-five"
      When seat 0 leads 20
      And seat 1 plays 30
      Then playing 10 by seat 2 is refused with "must-follow-marker"

  Rule: Rules that cannot be played are refused, naming the option

    Scenario Outline: Bad options
      Then asking for the <game> rules with <options> is refused for the option "<option>"

      Examples:
        | game        | options                          | option       |
        | agurk       | threshold 0                      | threshold    |
        | agurk       | lives 0                          | lives        |
        | agurk       | hand size 8                      | hand_size    |
        | agurk       | hand size 0                      | hand_size    |
        | gurka       | follow sometimes                 | follow       |
        | gurka       | ace lead maybe                   | ace_lead     |
        | agurk       | doubling once                    | doubling     |
        | gurka       | revival on and fixed rounds 3    | revival      |
        | gurka       | fixed rounds 0                   | fixed_rounds |
        | agurk       | round limit 0                    | round_limit  |
        | gurka       | round limit 5 and fixed rounds 3 | round_limit  |
        | agurk       | surprise on                      | surprise     |
        | catastrophe | threshold 21                     | threshold    |
        | catastrophe | hand count 0                     | hand_count   |
        | catastrophe | max players 7                    | max_players  |
        | agurk       | colour red                       | colour       |

    Scenario: An unknown game
      Then asking for the bridge rules is refused for the option "preset"

    Scenario Outline: Bad player counts and starting seats
      Then starting a game of <game> for <players> players<first> is refused for the option "<option>"

      Examples:
        | game  | players | first          | option  |
        | agurk | 2       |                | players |
        | agurk | 4       | , seat 4 first | first   |

  Rule: Card notation

    Scenario Outline: Ways to write a card
      Then the card "<text>" reads as <card>

      Examples:
        | text | card |
        | QS   | QS   |
        | qs   | QS   |
        | 10H  | 10H  |
        | TH   | 10H  |
        | A♠   | AS   |
        | K♥   | KH   |
        | 7    | 7    |
        | 42   | 42   |

    Scenario Outline: Text that is not a card
      Then the card "<text>" is refused as bad notation

      Examples:
        | text |
        | QX   |
        | 1S   |
        | 61   |
        | 0    |
        | ZZZZ |

    Scenario: A card is written as text, or as its number on a numbered deck
      Then giving a card as the number 12 gives the numbered card 12
      And giving a card as 12.0 or true is refused as the wrong type

  Rule: A saved game is checked when it is loaded

    Background:
      Given a game of agurk for 3 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | 2C 5H 8D 9H JC KD AS  |
        | 1    | 3C 4D 7S 10S QH KS AH |
        | 2    | 2D 6C 6H 9C JD QS KC  |
      And seat 0 leads 9H
      And the game is saved as text

    Scenario: Saving and loading gives back the same game
      Then loading the text gives back the same game

    Scenario: A card changed by hand makes a card appear twice
      Then loading the text with every 2C changed to 3C is refused, naming "$.history"

    Scenario Outline: A field changed by hand
      Then loading the text with <field> set to <value> is refused, naming "<where>"

      Examples:
        | field           | value | where             |
        | to_act          | 2     | $.to_act          |
        | first           | 5     | $.first           |
        | rules.threshold | 0     | $.rules.threshold |
        | format          | 99    | $.format          |

    Scenario Outline: A field of a saved view changed by hand
      A view cannot be replayed (it lacks the other hands), but it must be one that some match
      could show: its fields are checked against its own events and results.

      Given seat 2's view is saved as text
      Then loading the text with <field> set to <value> is refused, naming "<where>"

      Examples:
        | field      | value                       | where        |
        | to_act     | 2                           | $.to_act     |
        | dealer     | 0                           | $.dealer     |
        | hand_sizes | [7,7,7]                     | $.hand_sizes |
        | trick      | []                          | $.trick      |
        | players    | ["Ann","Bo\u001b[2J","Cy"] | $.players[1] |
        | players    | ["Ann","Bo","\ud800"]      | $.players[2] |

    Scenario Outline: Text that is no saved game at all
      Then loading the text '<text>' is refused, naming "$"

      Examples:
        | text          |
        | {not json     |
        | [1, 2, 3]     |
        | {"format": 1} |
