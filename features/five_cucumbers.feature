Feature: Five Cucumbers and Fünf Gurken
  Five Cucumbers is played by two to six players with its own deck of 60 cards: four copies of
  each number from 1 to 15. Seven cards are dealt to each player and the rest of the deck is not
  used. The youngest player leads the first trick of the game; after that, the taker of a trick
  leads the next one.

  Following works as in the other cucumber games: play a card at least as high as the highest
  card in the trick, or your lowest card, which you may always choose. The highest card takes the
  trick, and of equal cards the one played last.

  Only the seventh trick is scored. Its taker collects cucumbers according to the card that took
  it: a 1 costs nothing, 2 to 5 cost one cucumber, 6 to 9 two, 10 and 11 three, 12 to 14 four, and
  a 15 five. Every 1 played to that trick doubles the bill. A player with too many cucumbers is
  out, the next round is led by the player who just paid (or by the next player still in, on their
  left), and the last player left wins.

  Two presets read the rules differently, and both are provided. `five-cucumbers` follows the
  rules text: five cucumbers put you out, and each 1 in the last trick doubles again.
  `fuenf-gurken` follows the publisher's rule sheet: you are out only with a sixth cucumber, and
  the bill doubles once however many 1s were played.

  Rule: Two to six players, seven cards each from four copies of 1 to 15

    Scenario Outline: Seven players are too many
      Then starting a game of <game> for 7 players is refused for the option "players"

      Examples:
        | game           |
        | five-cucumbers |
        | fuenf-gurken   |

    Scenario: The youngest player leads the first trick
      Given a game of five-cucumbers for 3 players
      And seat 2 is the starting player
      When the cards are shuffled and dealt with seed 8
      Then every player holds 7 cards
      And seat 2 leads the first trick

    Scenario: Four copies of a card are allowed in a deal, a fifth is not
      Given a game of five-cucumbers for 2 players
      Then dealing these hands is refused with "bad-deal":
        | seat | hand             |
        | 0    | 7 7 7 1 2 3 4    |
        | 1    | 7 7 8 9 10 11 12 |
      When the cards are dealt:
        | seat | hand             |
        | 0    | 7 7 7 1 2 3 4    |
        | 1    | 7 5 8 9 10 11 12 |
      Then seat 0 holds 1 2 3 4 7 7 7

  Rule: Follow with a card at least as high, or with your lowest card, always a free choice

    Background:
      Given a game of five-cucumbers for 3 players
      And the cards are dealt:
        | seat | hand             |
        | 0    | 1 3 5 8 10 13 15 |
        | 1    | 3 3 5 9 12 14 15 |
        | 2    | 1 4 7 9 10 12 15 |

    Scenario: The lowest card may be played even by a player who could go higher
      When seat 0 leads 8
      Then seat 1 may play 3, 9, 12, 14 and 15
      And playing 5 by seat 1 is refused with "must-follow"

    Scenario: Identical cards are one choice
      Seat 1 holds two 3s: the legal moves list the 3 once.

      When seat 0 leads 1
      Then seat 1 may play 3, 5, 9, 12, 14 and 15

  Rule: The highest card takes the trick; of equal cards, the one played last

    Scenario Outline: Who takes a trick
      Given a game of five-cucumbers for 3 players
      And the cards are dealt:
        | seat | hand             |
        | 0    | 1 3 5 8 10 13 15 |
        | 1    | 2 3 6 8 11 12 14 |
        | 2    | 1 4 7 9 10 12 15 |
      When the tricks are played:
        | cards   | taken by |
        | <cards> | <taker>  |
      Then <taker> leads the next trick

      Examples:
        | cards   | taker  |
        | 8 8 1   | seat 1 |
        | 8 8 9   | seat 2 |
        | 15 2 15 | seat 2 |
        | 10 11 1 | seat 1 |
        | 13 2 1  | seat 0 |

  Rule: The taker of the seventh trick collects cucumbers for the card that took it

    Scenario Outline: A whole round: the second 15 takes the last trick and costs five cucumbers
      Given a game of <game> for 3 players
      And the cards are dealt:
        | seat | hand             |
        | 0    | 1 3 5 8 10 13 15 |
        | 1    | 2 3 6 8 11 12 14 |
        | 2    | 1 4 7 9 10 12 15 |
      When the tricks are played:
        | trick | led by | cards    | taken by |
        | 1     | seat 0 | 8 8 1    | seat 1   |
        | 2     | seat 1 | 2 4 1    | seat 2   |
        | 3     | seat 2 | 7 3 11   | seat 1   |
        | 4     | seat 1 | 3 9 10   | seat 0   |
        | 5     | seat 0 | 5 6 12   | seat 2   |
        | 6     | seat 2 | 10 13 12 | seat 0   |
        | 7     | seat 0 | 15 14 15 | seat 2   |
      Then seat 2 takes 5 cucumbers
      And the scores for the round are 0, 0 and 5
      And seat 2 <outcome>

      Examples:
        | game           | outcome              |
        | five-cucumbers | is eliminated        |
        | fuenf-gurken   | is still in the game |

    Scenario Outline: The cucumber table, card by card
      Each example is a round of one card each: seat 0 leads a low card and seat 1's card takes
      the trick (a card equal to the lead takes it too, being played later).

      Given a game of <game> for 2 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 |
        | 1     | <lead> | <card> |
      Then seat 1 takes <cucumbers> cucumbers

      Examples: Five Cucumbers
        | game           | lead | card | cucumbers |
        | five-cucumbers | 1    | 1    | 0         |
        | five-cucumbers | 2    | 2    | 1         |
        | five-cucumbers | 2    | 3    | 1         |
        | five-cucumbers | 2    | 4    | 1         |
        | five-cucumbers | 2    | 5    | 1         |
        | five-cucumbers | 2    | 6    | 2         |
        | five-cucumbers | 2    | 7    | 2         |
        | five-cucumbers | 2    | 8    | 2         |
        | five-cucumbers | 2    | 9    | 2         |
        | five-cucumbers | 2    | 10   | 3         |
        | five-cucumbers | 2    | 11   | 3         |
        | five-cucumbers | 2    | 12   | 4         |
        | five-cucumbers | 2    | 13   | 4         |
        | five-cucumbers | 2    | 14   | 4         |
        | five-cucumbers | 2    | 15   | 5         |

      Examples: Fünf Gurken
        | game         | lead | card | cucumbers |
        | fuenf-gurken | 1    | 1    | 0         |
        | fuenf-gurken | 2    | 2    | 1         |
        | fuenf-gurken | 2    | 3    | 1         |
        | fuenf-gurken | 2    | 4    | 1         |
        | fuenf-gurken | 2    | 5    | 1         |
        | fuenf-gurken | 2    | 6    | 2         |
        | fuenf-gurken | 2    | 7    | 2         |
        | fuenf-gurken | 2    | 8    | 2         |
        | fuenf-gurken | 2    | 9    | 2         |
        | fuenf-gurken | 2    | 10   | 3         |
        | fuenf-gurken | 2    | 11   | 3         |
        | fuenf-gurken | 2    | 12   | 4         |
        | fuenf-gurken | 2    | 13   | 4         |
        | fuenf-gurken | 2    | 14   | 4         |
        | fuenf-gurken | 2    | 15   | 5         |

    Scenario Outline: A tie on the last trick gives no bonus
      Unlike Agurk, neither version has a tie bonus: seat 2, whose 6 came before seat 0's, keeps
      its 4 cucumbers.

      Given a game of <game> for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals  |
        | 1     | 2      | 3      | 12     | seat 2 | 0, 0, 4 |
        | 2     | 6      | 2      | 6      | seat 0 | 2, 0, 4 |
      Then the scores for the round are 2, 0 and 0

      Examples:
        | game           |
        | five-cucumbers |
        | fuenf-gurken   |

  Rule: Each 1 in the last trick doubles the bill (Five Cucumbers), or any 1s double it once (Fünf Gurken)

    Scenario Outline: Ones in the last trick
      Given a game of <game> for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | <c0>   | <c1>   | <c2>   |
      Then seat 2 takes <cucumbers> cucumbers

      Examples:
        | game           | c0 | c1 | c2 | cucumbers |
        | five-cucumbers | 2  | 5  | 12 | 4         |
        | five-cucumbers | 1  | 5  | 12 | 8         |
        | five-cucumbers | 1  | 1  | 12 | 16        |
        | five-cucumbers | 1  | 1  | 1  | 0         |
        | fuenf-gurken   | 2  | 5  | 12 | 4         |
        | fuenf-gurken   | 1  | 5  | 12 | 8         |
        | fuenf-gurken   | 1  | 1  | 12 | 8         |
        | fuenf-gurken   | 1  | 1  | 1  | 0         |

  Rule: Too many cucumbers and you are out: five in Five Cucumbers, six in Fünf Gurken

    Scenario: Five Cucumbers: the fifth cucumber puts a player out
      Given a game of five-cucumbers for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals  |
        | 1     | 12     | 2      | 3      | seat 0 | 4, 0, 0 |
      Then seat 0 is still in the game
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals  |
        | 2     | 5      | 2      | 3      | seat 0 | 5, 0, 0 |
      Then seat 0 is eliminated
      And the match is not over

    Scenario: Fünf Gurken: only the sixth cucumber puts a player out
      Given a game of fuenf-gurken for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals  |
        | 1     | 12     | 2      | 3      | seat 0 | 4, 0, 0 |
        | 2     | 5      | 2      | 3      | seat 0 | 5, 0, 0 |
      Then seat 0 is still in the game
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals  |
        | 3     | 4      | 2      | 3      | seat 0 | 6, 0, 0 |
      Then seat 0 is eliminated

    Scenario: The last player left wins
      Given a game of five-cucumbers for 2 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | pays   | totals |
        | 1     | 15     | 2      | seat 0 | 5, 0   |
      Then seat 0 is eliminated
      And seat 1 wins the match

  Rule: The player who paid leads the next round, or the next player still in on their left

    Scenario Outline: The payer leads the next round
      Seat 0 led the first round and seat 2 paid for it: seat 2 leads the next round, not seat 1,
      the next seat clockwise.

      Given a game of <game> for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   |
        | 1     | 2      | 3      | 9      | seat 2 |
      And the cards are dealt:
        | seat | hand |
        | 0    | 4    |
        | 1    | 5    |
        | 2    | 6    |
      Then seat 2 leads the first trick

      Examples:
        | game           |
        | five-cucumbers |
        | fuenf-gurken   |

    Scenario: When the payer is out, the next player still in on their left leads
      Given a game of five-cucumbers for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals  |
        | 1     | 2      | 3      | 15     | seat 2 | 0, 0, 5 |
      Then seat 2 is eliminated
      When the cards are dealt:
        | seat | hand |
        | 0    | 4    |
        | 1    | 5    |
      Then seat 0 leads the first trick
