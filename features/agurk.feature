Feature: Agurk, the Danish Cucumber
  Agurk is played with an ordinary 52-card deck by three to seven players. Suits play no part:
  only ranks count, from 2 up to the ace (J 11, Q 12, K 13, A 14). Each round every player gets
  seven cards and seven tricks are played, but only the seventh trick matters: whoever takes it
  adds the value of their card to their score.

  In a trick the leader may play anything. Everyone after must play a card at least as high as
  the highest card already in the trick, or their lowest card. The lowest card is always allowed,
  even by a player who could go higher. The highest card takes the trick; when equal cards tie
  for highest, the one played last takes it, and its player leads the next trick.

  When the last trick is taken with a card of a rank someone else also played in it, the later
  card pays, and every other player of that rank subtracts the same value from their own score
  (never below zero). Reaching 21 points the first time costs a cucumber: the score is reset to
  the highest score of another player still in the game. Reaching 21 again puts you out. The last
  player left wins.

  Cards are written `QS`, `10H`, `AD`: rank then suit. Several examples deal one card per player
  (the option `hand size 1`): the only trick of such a round is its last trick, so the scoring
  rules show up without six tricks of preamble.

  Rule: Three to seven players, seven cards each

    Scenario Outline: Agurk needs three to seven players
      Then starting a game of agurk for <players> players is refused for the option "players"

      Examples:
        | players |
        | 2       |
        | 8       |

    Scenario: Each player is dealt seven cards and the rest of the deck is set aside
      Given a game of agurk for 7 players
      When the cards are shuffled and dealt with seed 2024
      Then every player holds 7 cards
      And seat 0 leads the first trick

  Rule: Follow with a card at least as high as the highest in the trick, or with your lowest card

    Background:
      Given a game of agurk for 4 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | 2C 5H 8D 9H JC KD AS  |
        | 1    | 3C 4D 7S 10S QH KS AH |
        | 2    | 2D 6C 6H 9C JD QS KC  |
        | 3    | 3H 4S 7C 8S 10H JH AD |

    Scenario: Suits do not matter, an equal card is high enough, and the lowest card is always allowed
      When seat 0 leads KD
      Then seat 1 may play 3C, KS and AH
      And seat 1 may not play 4D, 7S, 10S and QH

    Scenario: The bar is the highest card so far, not the card that was led
      When seat 0 leads 9H
      And seat 1 plays 10S
      Then seat 2 may play 2D, JD, QS and KC
      And playing 9C by seat 2 is refused with "must-follow"
      And the explanation mentions "10 or higher" and "2D"

    Scenario: A player who cannot reach the highest card must play their lowest card
      When seat 0 leads 5H
      And seat 1 plays AH
      Then seat 2 may play only 2D
      And playing KC by seat 2 is refused with "must-follow"

    Scenario: The leader may lead any card
      Then seat 0 may play any card

  Rule: The lowest card is any card of the lowest rank

    Scenario: A player with two cards of the lowest rank may play either
      Seat 1 cannot reach the king, so it plays its lowest card: 2C and 2D are both that card.

      Given a game of agurk for 3 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | KS 3C 4C 5C 6C 7C 8C  |
        | 1    | 2C 2D 3S 9H 10H JH QH |
        | 2    | AS AD 4H 5H 6H 7H 8H  |
      When seat 0 leads KS
      Then seat 1 may play only 2C and 2D

  Rule: A led ace is an ordinary card: Agurk has no ace rule

    Scenario: An ace may follow a led ace, and the later ace takes the trick
      Gurka's rule, that a led ace makes everyone play their lowest card, is not Agurk's: here seat
      1 may answer the ace with its own, and that later ace takes the trick.

      Given a game of agurk for 3 players
      And the cards are dealt:
        | seat | hand                 |
        | 0    | AS 2C 3C 4C 5C 6C 7C |
        | 1    | AH 2D 3D 4D 5D 6D 7D |
        | 2    | KS 2H 3H 4H 5H 6H 7H |
      When seat 0 leads AS
      Then seat 1 may play AH and 2D
      When seat 1 plays AH
      Then seat 2 may play only 2H
      When seat 2 plays 2H
      Then seat 1 takes the trick

  Rule: The highest card takes the trick; of equal highest cards, the one played last

    Scenario Outline: Who takes a trick
      Given a game of agurk for 4 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | 2C 5H 8D 9H JC KD AS  |
        | 1    | 3C 4D 7S 10S QH KS AH |
        | 2    | 2D 6C 6H 9C JD QS KC  |
        | 3    | 3H 4S 7C 8S 10H JH AD |
      When the tricks are played:
        | cards   | taken by |
        | <cards> | <taker>  |
      Then <taker> leads the next trick

      Examples:
        | cards         | taker  |
        | 9H 10S 2D 10H | seat 3 |
        | 9H 10S KC 3H  | seat 2 |
        | AS 3C 2D 3H   | seat 0 |
        | KD KS KC AD   | seat 3 |
        | KD KS KC 3H   | seat 2 |

  Rule: Only the seventh trick scores, and its taker pays the value of the winning card

    Scenario: A whole round, trick by trick: the ace that takes the last trick costs 14
      This round ends in a tie on the last trick: seat 3's AD is beaten by seat 0's later AS.
      Seat 3 earns the tie bonus, but has no points to lose yet.

      Given a game of agurk for 4 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | 2C 5H 8D 9H JC KD AS  |
        | 1    | 3C 4D 7S 10S QH KS AH |
        | 2    | 2D 6C 6H 9C JD QS KC  |
        | 3    | 3H 4S 7C 8S 10H JH AD |
      When the tricks are played:
        | trick | led by | cards         | taken by |
        | 1     | seat 0 | 9H 10S 2D 10H | seat 3   |
        | 2     | seat 3 | 4S 2C 4D KC   | seat 2   |
        | 3     | seat 2 | 6H 3H 8D QH   | seat 1   |
        | 4     | seat 1 | 3C 9C 7C 5H   | seat 2   |
        | 5     | seat 2 | 6C 8S JC 7S   | seat 0   |
        | 6     | seat 0 | KD AH JD JH   | seat 1   |
        | 7     | seat 1 | KS QS AD AS   | seat 0   |
      Then seat 0 pays 14 points
      And the scores for the round are 14, 0, 0 and 0
      And the totals are 14, 0, 0 and 0
      And a deal is due

    Scenario Outline: The last trick costs the value of the card that takes it
      Given a game of agurk for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | <card> | 2C     | 2D     |
      Then seat 0 pays <points> points
      And the totals are <points>, 0 and 0

      Examples:
        | card | points |
        | AS   | 14     |
        | KS   | 13     |
        | QS   | 12     |
        | JS   | 11     |
        | 10S  | 10     |
        | 9S   | 9      |
        | 8S   | 8      |
        | 7S   | 7      |
        | 6S   | 6      |
        | 5S   | 5      |
        | 4S   | 4      |
        | 3S   | 3      |

    Scenario: When all the cards of the last trick are equal, the last one played pays
      Given a game of agurk for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | 2S     | 2C     | 2D     |
      Then seat 2 pays 2 points

  Rule: A tie on the last trick: the later card pays, the others of that rank subtract the same value

    Scenario: The earlier player of the tied rank subtracts the penalty from their score
      Round 2 is led by seat 1, so seat 1's KS comes before seat 0's KH: seat 0 pays 13 and
      seat 1, who played a king too, goes from 14 down to 1.

      Given a game of agurk for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals   |
        | 1     | 2C     | AS     | 3D     | seat 1 | 0, 14, 0 |
        | 2     | KH     | KS     | 4C     | seat 0 | 13, 1, 0 |
      Then the scores for the round are 13, -13 and 0

    Scenario: The tie bonus never takes a score below zero
      Given a game of agurk for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals   |
        | 1     | 2C     | 5S     | 3D     | seat 1 | 0, 5, 0  |
        | 2     | KH     | KS     | 4C     | seat 0 | 13, 0, 0 |
      Then the scores for the round are 13, -5 and 0

    Scenario: A player who played another rank gets no tie bonus
      Seat 3 has 9 points when the last trick of round 3 ties on eights, but it played a 3: it keeps
      its 9. Seat 2, whose 8 came first, goes from 9 down to 1.

      Given a game of agurk for 4 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | seat 3 | pays   | totals     |
        | 1     | 2C     | 3C     | 4C     | 9C     | seat 3 | 0, 0, 0, 9 |
        | 2     | 3D     | 2H     | 9H     | 4D     | seat 2 | 0, 0, 9, 9 |
        | 3     | 8D     | 2S     | 8C     | 3H     | seat 0 | 8, 0, 1, 9 |
      Then the scores for the round are 8, 0, -8 and 0

    Scenario: Every earlier player of the tied rank gets the bonus, and nobody else
      Given a game of agurk for 4 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | seat 3 | pays   | totals      |
        | 1     | 2C     | 9S     | 3D     | 4D     | seat 1 | 0, 9, 0, 0  |
        | 2     | 9H     | 2S     | 8C     | 3C     | seat 0 | 9, 9, 0, 0  |
        | 3     | JD     | 4H     | 5C     | 6C     | seat 0 | 20, 9, 0, 0 |
        | 4     | 7C     | 7D     | 7S     | 5H     | seat 2 | 13, 2, 7, 0 |
      Then the scores for the round are -7, -7, 7 and 0

  Rule: Reaching 21 costs a cucumber; reaching it again puts you out

    Scenario: The first time: a cucumber mark, and the score drops to the highest score of another player
      Given a game of agurk for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals   |
        | 1     | AS     | 2C     | 3C     | seat 0 | 14, 0, 0 |
        | 2     | 3D     | 9H     | 2D     | seat 1 | 14, 9, 0 |
        | 3     | 8S     | 2H     | 4H     | seat 0 | 9, 9, 0  |
      Then seat 0 draws a cucumber mark and is reset to 9 points
      And seat 0 has 1 cucumber mark
      And seat 0 is still in the game
      And the scores for the round are 8, 0 and 0

    Scenario Outline: Reaching 21 exactly counts, and so does passing it
      Given a game of agurk for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | AS     | 2C     | 3C     |
        | 2     | 3D     | 5H     | 2D     |
        | 3     | <card> | 2H     | 4H     |
      Then seat 0 has <marks> cucumber mark
      And the totals are <totals>

      Examples:
        | card | marks | totals   |
        | 6S   | no    | 20, 5, 0 |
        | 7S   | 1     | 5, 5, 0  |
        | 8S   | 1     | 5, 5, 0  |

    Scenario: The reset counts the tie bonuses of the same round first
      In round 3 seat 1 takes the last trick with the later ten and passes 21, while seat 2's
      earlier ten takes 10 off seat 2's 12. Seat 1's new score is seat 2's score after that
      bonus, 2, and not the 12 seat 2 had before the round.

      Given a game of agurk for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals    |
        | 1     | 2C     | AS     | 3C     | seat 1 | 0, 14, 0  |
        | 2     | 2D     | 3D     | QS     | seat 2 | 0, 14, 12 |
        | 3     | 2H     | 10D    | 10S    | seat 1 | 0, 2, 2   |
      Then seat 1 draws a cucumber mark and is reset to 2 points

    Scenario: With no points held by any other player, the reset is to zero
      Given a game of agurk for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals   |
        | 1     | 2C     | AS     | 3C     | seat 1 | 0, 14, 0 |
        | 2     | 3D     | 9S     | 2D     | seat 1 | 0, 0, 0  |
      Then seat 1 draws a cucumber mark and is reset to 0 points

    Scenario: The second time out, and the last player left wins the match
      With the threshold lowered to 10 (an option), two crossings each take two rounds.
      Once seat 0 is out it receives no cards, and the deal and the lead pass over it.

      Given a game of agurk for 3 players with hand size 1 and threshold 10
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals   |
        | 1     | QS     | 2C     | 3C     | seat 0 | 0, 0, 0  |
        | 2     | KS     | 2D     | 3D     | seat 0 | 13, 0, 0 |
      Then seat 0 is eliminated
      And seat 0 has 1 cucumber mark
      And the match is not over
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals    |
        | 3     | -      | JS     | 4C     | seat 1 | 13, 0, 0  |
        | 4     | -      | AS     | 2H     | seat 1 | 13, 14, 0 |
      Then seat 1 is eliminated
      And seat 2 wins the match
