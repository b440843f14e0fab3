Feature: Cucumber Catastrophe
  Cucumber Catastrophe is for three to six players, with 60 cards numbered 1 to 60 and a Trick
  Marker. A match is four hands. Each player is dealt ten cards and a hand is ten tricks; the
  cards nobody receives go back to the box unseen.

  Whoever took the last trick leads the next one (the starting player leads the first), but never
  with one of the six 5-cucumber cards (5, 15, 25, 35, 45 and 55) unless nothing else is left in
  hand. The second card of the trick sets the rule, shown by the Trick Marker. A card higher than
  the lead sets the High rule: the highest card takes the trick, and everyone after must play a
  card higher than the lead. A lower card sets the Low rule: the lowest card takes the trick, and
  everyone after must play lower than the lead. The rule is about the lead card, not about the
  best card so far.

  A player who cannot obey plays any card and breaks the rule: the marker flips, so after a
  broken High the lowest card takes the trick and after a broken Low the highest does, and the
  players after the breaker play whatever they like. The taker captures all the cards of the trick.

  At the end of a hand every player counts the cucumbers on the cards they captured: five on each
  5-cucumber card and, as this library assumes (the rules only fix those six cards), one on every
  other card. After the last hand the fewest cucumbers win; a tie goes to the tied player with
  the lowest score in a single hand, and if that ties too the win is shared. The next hand is
  started by the player with the most cucumbers so far, a tie being settled by a random draw that
  is part of the deal.

  Two variants can be played alone or together. In Surprise Cucumber the lead card of every trick
  is turned up from the deck, and the first player plays the card that sets the rule (with six
  players, eight cards each and eight tricks). In If You Can't Beat 'Em all six 5-cucumber cards
  are dealt, and a player who captures four or more of them in a hand scores -5 for it.

  Rule: Three to six players, ten cards each

    Scenario Outline: Too few or too many players
      Then starting a game of catastrophe for <players> players is refused for the option "players"

      Examples:
        | players |
        | 2       |
        | 7       |

    Scenario: Ten cards each, and the starting player leads
      Given a game of catastrophe for 4 players
      And seat 3 is the starting player
      When the cards are shuffled and dealt with seed 60
      Then every player holds 10 cards
      And seat 3 starts the hand

    Scenario: A hand is ten tricks
      Three players play 30 cards: the hand ends with the thirtieth.

      Given a game of catastrophe for 3 players
      When the cards are shuffled and dealt with seed 61
      And 29 actions are taken at random with seed 62
      Then no hand has been played
      When 1 action is taken at random with seed 63
      Then 1 hand has been played
      And a deal is due

  Rule: The rulebook's worked examples, card by card

    Background:
      Given a game of catastrophe for Rick, Martha, Andrew, Stephen, Simon and Eleonore
      And Rick is the starting player
      And the cards are dealt:
        | player   | hand                          |
        | Rick     | 22 39 40 41 42 43 44 45 46 47 |
        | Martha   | 2 3 4 5 6 7 8 9 15 30         |
        | Andrew   | 1 10 11 12 13 14 16 27 28 48  |
        | Stephen  | 26 49 50 51 52 53 54 56 57 59 |
        | Simon    | 17 18 19 24 25 32 34 38 55 60 |
        | Eleonore | 20 21 23 29 31 33 35 36 37 58 |

    Scenario: Example 1: everyone follows the High rule and Simon's 34 takes the trick
      Martha's 30 is higher than Rick's 22, so the High rule holds: every later card must be
      higher than 22, the lead, though not higher than the 30. Andrew may play his 27 but not his
      16.

      When the trick is played card by card:
        | player   | may play                      | plays | marker  |
        | Rick     | any card but 45               | 22    | not set |
        | Martha   | any card                      | 30    | High    |
        | Andrew   | 27, 28 and 48                 | 27    | High    |
        | Stephen  | any card                      | 26    | High    |
        | Simon    | 24, 25, 32, 34, 38, 55 and 60 | 34    | High    |
        | Eleonore | any card but 20 and 21        | 23    | High    |
      Then Simon takes the trick
      And Simon has captured 22, 30, 27, 26, 34 and 23
      And Simon leads the next trick

    Scenario: Example 1: a card below the lead is refused while a higher one is held
      When Rick leads 22
      And Martha plays 30
      Then playing 16 by Andrew is refused with "must-follow-marker"
      And the explanation mentions "High" and "higher than 22"

    Scenario: Example 2: Rick breaks the Low rule and Stephen's 59 takes the trick
      Eleonore's 31 is lower than Simon's 38: the Low rule. Rick holds nothing lower than 38, so he
      plays 39 and breaks the rule. The marker flips, the highest card now takes the trick, and
      Martha, Andrew and Stephen may play anything. Martha gets rid of her 15, Andrew of his 1.

      When the tricks are played:
        | trick | led by | cards             | taken by |
        | 1     | Rick   | 22 30 27 26 34 23 | Simon    |
      And the trick is played card by card:
        | player   | may play               | plays | marker     |
        | Simon    | any card but 25 and 55 | 38    | not set    |
        | Eleonore | any card               | 31    | Low        |
        | Rick     | any card               | 39    | broken Low |
        | Martha   | any card               | 15    | broken Low |
        | Andrew   | any card               | 1     | broken Low |
        | Stephen  | any card               | 59    | broken Low |
      Then Stephen takes the trick
      And Stephen has captured 38, 31, 39, 15, 1 and 59
      And Stephen leads the next trick

    Scenario: Example 2: a 5-cucumber card may not lead
      When the tricks are played:
        | trick | led by | cards             | taken by |
        | 1     | Rick   | 22 30 27 26 34 23 | Simon    |
      Then playing 55 by Simon is refused with "cannot-lead-five"
      And the explanation mentions "17, 18, 19"

  Rule: A 5-cucumber card may lead only when the hand holds nothing else

    Scenario Outline: What may lead
      Given a game of catastrophe for 3 players with hand size 2
      And the cards are dealt:
        | seat | hand   |
        | 0    | <hand> |
        | 1    | 1 9    |
        | 2    | 2 3    |
      Then seat 0 may play <allowed>

      Examples:
        | hand  | allowed  |
        | 5 7   | only 7   |
        | 45 60 | only 60  |
        | 5 15  | 5 and 15 |
        | 7 8   | 7 and 8  |

  Rule: The second card sets the rule for the cards after it, measured against the lead

    Scenario: 17 then 24: the High rule, every later card must be higher than 17
      Given a game of catastrophe for 3 players with hand size 3
      And the cards are dealt:
        | seat | hand     |
        | 0    | 2 3 17   |
        | 1    | 4 6 24   |
        | 2    | 10 18 30 |
      When seat 0 leads 17
      Then the Trick Marker is not set
      And seat 1 may play any card
      When seat 1 plays 24
      Then the Trick Marker is High
      And seat 2 may play 18 and 30
      And playing 10 by seat 2 is refused with "must-follow-marker"
      When seat 2 plays 18
      Then seat 1 takes the trick

    Scenario: 38 then 35: the Low rule, every later card must be lower than 38
      Given a game of catastrophe for 3 players with hand size 3
      And the cards are dealt:
        | seat | hand     |
        | 0    | 2 3 38   |
        | 1    | 4 6 35   |
        | 2    | 36 40 50 |
      When seat 0 leads 38
      And seat 1 plays 35
      Then the Trick Marker is Low
      And seat 2 may play only 36
      And playing 40 by seat 2 is refused with "must-follow-marker"
      And the explanation mentions "Low" and "lower than 38"
      When seat 2 plays 36
      Then seat 1 takes the trick

  Rule: A player who cannot obey breaks the rule: the marker flips and the rest play freely

    Scenario: A broken High rule: the lowest card takes the trick
      Given a game of catastrophe for 4 players with hand size 2
      And the cards are dealt:
        | seat | hand  |
        | 0    | 20 41 |
        | 1    | 2 30  |
        | 2    | 10 12 |
        | 3    | 8 25  |
      When the trick is played card by card:
        | seat   | may play | plays | marker      |
        | seat 0 | any card | 20    | not set     |
        | seat 1 | any card | 30    | High        |
        | seat 2 | any card | 10    | broken High |
        | seat 3 | any card | 8     | broken High |
      Then seat 3 takes the trick

    Scenario: A broken Low rule: the highest card takes the trick
      Given a game of catastrophe for 4 players with hand size 2
      And the cards are dealt:
        | seat | hand  |
        | 0    | 20 41 |
        | 1    | 2 10  |
        | 2    | 30 40 |
        | 3    | 15 50 |
      When the trick is played card by card:
        | seat   | may play | plays | marker     |
        | seat 0 | any card | 20    | not set    |
        | seat 1 | any card | 10    | Low        |
        | seat 2 | any card | 30    | broken Low |
        | seat 3 | any card | 15    | broken Low |
      Then seat 2 takes the trick

  Rule: A hand scores the cucumbers on the cards each player captured

    Scenario: One hand of two tricks
      Seat 2's 1 breaks the High rule and takes the first trick, worth three cucumbers. Seat 0's 15
      takes the second, worth its five cucumbers and one for each other card.

      Given a game of catastrophe for 3 players with hand size 2 and hand count 1
      And the cards are dealt:
        | seat | hand |
        | 0    | 7 15 |
        | 1    | 8 9  |
        | 2    | 1 2  |
      When the tricks are played:
        | trick | led by | cards  | taken by | marker      |
        | 1     | seat 0 | 7 9 1  | seat 2   | broken High |
        | 2     | seat 2 | 2 15 8 | seat 0   | High        |
      Then the scores for the hand are 7, 0 and 3
      And seat 1 wins the match

    Scenario Outline: Five cucumbers on the six 5-cucumber cards, one on every other card
      Seat 2 takes the trick with the 59 and captures the lead card with 58 and 59, one cucumber each.

      Given a game of catastrophe for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | <card> | 58     | 59     |
      Then the scores for the hand are 0, 0 and <score>

      Examples:
        | card | score |
        | 1    | 3     |
        | 5    | 7     |
        | 10   | 3     |
        | 15   | 7     |
        | 25   | 7     |
        | 35   | 7     |
        | 45   | 7     |
        | 50   | 3     |
        | 55   | 7     |

    Scenario: The cucumbers on each card are an option
      The rulebook only fixes the six 5-cucumber cards, so the library lets the table be changed.
      Here card 42 carries three cucumbers.

      Given a game of catastrophe for 3 players with hand size 1 and 3 cucumbers on card 42
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | 42     | 58     | 59     |
      Then the scores for the hand are 0, 0 and 5

    Scenario: A card given five cucumbers is a 5-cucumber card for the lead rule
      Given a game of catastrophe for 3 players with hand size 2, 5 cucumbers on card 7 and 1 cucumber on card 5
      And the cards are dealt:
        | seat | hand |
        | 0    | 5 7  |
        | 1    | 1 9  |
        | 2    | 2 3  |
      Then seat 0 may play only 5
      And playing 7 by seat 0 is refused with "cannot-lead-five"

  Rule: The player with the most cucumbers starts the next hand; a draw settles a tie

    Scenario: The highest total starts the next hand
      Given a game of catastrophe for 3 players with hand size 1
      And the cards are dealt:
        | seat | hand |
        | 0    | 10   |
        | 1    | 20   |
        | 2    | 30   |
      When the tricks are played:
        | cards    | taken by |
        | 10 20 30 | seat 2   |
      Then the totals are 0, 0 and 3
      And dealing these hands, with seat 0 drawn to start, is refused with "bad-deal":
        | seat | hand |
        | 0    | 11   |
        | 1    | 21   |
        | 2    | 31   |
      When the cards are dealt:
        | seat | hand |
        | 0    | 11   |
        | 1    | 21   |
        | 2    | 31   |
      Then seat 2 starts the hand

    Scenario: A tie for the highest total is settled by the deal
      Given a game of catastrophe for 3 players with hand size 2
      And the cards are dealt:
        | seat | hand  |
        | 0    | 10 40 |
        | 1    | 20 21 |
        | 2    | 30 31 |
      When the tricks are played:
        | trick | led by | cards    | taken by | marker      |
        | 1     | seat 0 | 10 20 30 | seat 2   | High        |
        | 2     | seat 2 | 31 40 21 | seat 1   | broken High |
      Then the totals are 0, 3 and 3
      And dealing these hands is refused with "bad-deal":
        | seat | hand |
        | 0    | 1 2  |
        | 1    | 3 4  |
        | 2    | 6 7  |
      And dealing these hands, with seat 0 drawn to start, is refused with "bad-deal":
        | seat | hand |
        | 0    | 1 2  |
        | 1    | 3 4  |
        | 2    | 6 7  |
      When the cards are dealt, with seat 1 drawn to start:
        | seat | hand |
        | 0    | 1 2  |
        | 1    | 3 4  |
        | 2    | 6 7  |
      Then seat 1 starts the hand

  Rule: After the last hand the fewest cucumbers win; then the lowest single hand; then the win is shared

    Scenario: Equal totals: the lowest score in a single hand wins
      Seats 0 and 1 both finish with 6 cucumbers, but seat 1 had a hand of 0 and seat 0 never went
      below 3. Seat 1 started the second hand, having the most cucumbers after the first.

      Given a game of catastrophe for 3 players with hand size 3 and hand count 2
      And the cards are dealt:
        | seat | hand     |
        | 0    | 2 30 50  |
        | 1    | 20 40 60 |
        | 2    | 10 33 52 |
      When the tricks are played:
        | trick | led by | cards    | taken by |
        | 1     | seat 0 | 30 40 33 | seat 1   |
        | 2     | seat 1 | 20 10 2  | seat 0   |
        | 3     | seat 0 | 50 60 52 | seat 1   |
      Then the scores for the hand are 3, 6 and 0
      When the cards are dealt:
        | seat | hand     |
        | 0    | 10 35 50 |
        | 1    | 12 30 51 |
        | 2    | 20 40 60 |
      And the tricks are played:
        | trick | led by | cards    | taken by |
        | 1     | seat 1 | 30 40 35 | seat 2   |
        | 2     | seat 2 | 20 10 12 | seat 0   |
        | 3     | seat 0 | 50 51 60 | seat 2   |
      Then the scores for the hand are 3, 0 and 10
      And the totals are 6, 6 and 10
      And seat 1 wins the match

    Scenario: Equal in every way: the win is shared
      Given a game of catastrophe for 3 players with hand size 1 and hand count 3
      When the cards are dealt:
        | seat | hand |
        | 0    | 10   |
        | 1    | 20   |
        | 2    | 30   |
      And the tricks are played:
        | cards    | taken by |
        | 10 20 30 | seat 2   |
      And the cards are dealt:
        | seat | hand |
        | 0    | 11   |
        | 1    | 21   |
        | 2    | 31   |
      And the tricks are played:
        | cards    | taken by |
        | 31 11 21 | seat 0   |
      And the cards are dealt, with seat 2 drawn to start:
        | seat | hand |
        | 0    | 22   |
        | 1    | 32   |
        | 2    | 12   |
      And the tricks are played:
        | cards    | taken by |
        | 12 22 32 | seat 1   |
      Then the totals are 3, 3 and 3
      And seat 0, seat 1 and seat 2 share the win
      And 3 hands have been played

  Rule: Variant: Surprise Cucumber, the lead card turned up from the deck

    Scenario: The first player sets the rule against the revealed card, and the taker captures it too
      The turned-up 25 is a 5-cucumber card, but it is nobody's lead, so no restriction applies.
      In the second trick seat 2 opens with its last card, the 5, after the turned-up 45 (the next
      scenario has a 5 played first while other cards are held).

      Given a game of catastrophe for 3 players with hand size 2 and Surprise Cucumber
      When the cards are dealt:
        | seat  | hand  |
        | 0     | 10 40 |
        | 1     | 20 30 |
        | 2     | 5 50  |
        | stock | 25 45 |
      Then the card revealed from the stock is 25
      And the Trick Marker is not set
      When the trick is played card by card:
        | seat   | may play | plays | marker |
        | seat 0 | any card | 40    | High   |
        | seat 1 | only 30  | 30    | High   |
        | seat 2 | only 50  | 50    | High   |
      Then seat 2 takes the trick
      And the card revealed from the stock is 45
      And seat 2 has captured 25, 40, 30 and 50
      When the trick is played card by card:
        | seat   | may play | plays | marker |
        | seat 2 | any card | 5     | Low    |
        | seat 0 | any card | 10    | Low    |
        | seat 1 | any card | 20    | Low    |
      Then seat 2 takes the trick
      And the scores for the hand are 0, 0 and 20

    Scenario: The first player may open with a 5-cucumber card while holding other cards
      With Surprise Cucumber the turned-up card is the lead, and the first player's card is the
      second of the trick: the 5-cucumber lead rule does not apply to it.

      Given a game of catastrophe for 3 players with hand size 2 and Surprise Cucumber
      When the cards are dealt:
        | seat  | hand  |
        | 0     | 5 40  |
        | 1     | 20 30 |
        | 2     | 10 50 |
        | stock | 25 45 |
      Then seat 0 may play 5 and 40

    Scenario: The deal must leave a deck to reveal from
      Given a game of catastrophe for 3 players with hand size 2 and Surprise Cucumber
      Then dealing these hands is refused with "bad-deal":
        | seat | hand  |
        | 0    | 10 40 |
        | 1    | 20 30 |
        | 2    | 5 50  |

    Scenario: With six players, eight cards each and eight tricks
      Given a game of catastrophe for 6 players with Surprise Cucumber
      When the cards are shuffled and dealt with seed 6
      Then every player holds 8 cards
      When 47 actions are taken at random with seed 7
      Then no hand has been played
      When 1 action is taken at random with seed 8
      Then 1 hand has been played

  Rule: Variant: If You Can't Beat 'Em, four 5-cucumber cards in a hand score -5

    Scenario Outline: Capturing four of the six 5-cucumber cards
      Seat 1 captures 55 and 15 in the first trick and 5 and 35 in the last: 22 cucumbers, or -5
      with If You Can't Beat 'Em. Seat 0's two 5-cucumber cards count as usual.

      Given a game of catastrophe for 3 players with hand size 3, hand count 1<variant>
      And the cards are dealt:
        | seat | hand    |
        | 0    | 1 5 45  |
        | 1    | 2 35 55 |
        | 2    | 6 15 25 |
      When the tricks are played:
        | trick | led by | cards   | taken by |
        | 1     | seat 0 | 1 55 15 | seat 1   |
        | 2     | seat 1 | 2 25 45 | seat 0   |
        | 3     | seat 0 | 5 35 6  | seat 1   |
      Then the scores for the hand are <scores>
      And seat <winner> wins the match

      Examples:
        | variant                 | scores       | winner |
        |                         | 11, 22 and 0 | 2      |
        | , If You Can't Beat 'Em | 11, -5 and 0 | 1      |

    Scenario Outline: Five 5-cucumber cards score -5 as well
      Seat 2 captures 7, 5 and 55, then 45, 15 and 35: five 5-cucumber cards, 26 cucumbers.

      Given a game of catastrophe for 3 players with hand size 3, hand count 1<variant>
      And the cards are dealt:
        | seat | hand     |
        | 0    | 7 25 35  |
        | 1    | 5 21 45  |
        | 2    | 15 27 55 |
      When the tricks are played:
        | trick | led by | cards    | taken by |
        | 1     | seat 0 | 7 5 55   | seat 2   |
        | 2     | seat 2 | 27 25 21 | seat 1   |
        | 3     | seat 1 | 45 15 35 | seat 2   |
      Then the scores for the hand are <scores>

      Examples:
        | variant                 | scores      |
        |                         | 0, 7 and 26 |
        | , If You Can't Beat 'Em | 0, 7 and -5 |

    Scenario Outline: All six 5-cucumber cards score -5 as well
      Seat 1 captures 57, 20, 55 and 45, then 5, 35, 25 and 15: all six, 32 cucumbers.

      Given a game of catastrophe for 4 players with hand size 3, hand count 1<variant>
      And the cards are dealt:
        | seat | hand     |
        | 0    | 5 34 57  |
        | 1    | 10 20 35 |
        | 2    | 25 29 55 |
        | 3    | 12 15 45 |
      When the tricks are played:
        | trick | led by | cards       | taken by |
        | 1     | seat 0 | 57 20 55 45 | seat 1   |
        | 2     | seat 1 | 10 29 12 34 | seat 0   |
        | 3     | seat 0 | 5 35 25 15  | seat 1   |
      Then the scores for the hand are <scores>

      Examples:
        | variant                 | scores         |
        |                         | 4, 32, 0 and 0 |
        | , If You Can't Beat 'Em | 4, -5, 0 and 0 |

    Scenario: With Surprise Cucumber too, no 5-cucumber card may stay in the stock
      Together, the two variants deal all six 5-cucumber cards to the hands, and the cards turned up
      come from the rest.

      Given a game of catastrophe for 3 players with hand size 2, Surprise Cucumber and If You Can't Beat 'Em
      Then dealing these hands is refused with "bad-deal":
        | seat  | hand  |
        | 0     | 5 15  |
        | 1     | 25 35 |
        | 2     | 45 1  |
        | stock | 55 2  |
      And the explanation mentions "55"
      When the cards are dealt:
        | seat  | hand  |
        | 0     | 5 15  |
        | 1     | 25 35 |
        | 2     | 45 55 |
        | stock | 1 2   |
      Then the card revealed from the stock is 1

    Scenario: All six 5-cucumber cards must be dealt
      Given a game of catastrophe for 3 players with hand size 3 and If You Can't Beat 'Em
      Then dealing these hands is refused with "bad-deal":
        | seat | hand    |
        | 0    | 1 5 45  |
        | 1    | 2 4 35  |
        | 2    | 3 15 25 |
      And the explanation mentions "55"
