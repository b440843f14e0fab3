Feature: Gurka, the Scandinavian Cucumber
  Gurka is the Swedish member of the family (Kurkku in Finland), for two to seven players with a
  52-card deck. Seven cards each, seven tricks a round, and only the last trick counts.

  Following is stricter than in Agurk: a player who holds a card at least as high as the highest
  card in the trick must play one of those (any of them). Only a player who holds no such card
  plays their lowest card. A led ace is special: everybody else must then play their lowest card,
  even a player holding another ace, and the leader's ace takes the trick.

  The player who takes the last trick pays the value of the highest card in it (J 11, Q 12, K 13,
  A 14); of equal highest cards the one played last takes the trick. The rulebook calls that
  player the one who "lost" the trick, but its own tie rule shows that it means the taker. A player
  whose total reaches or passes 30 is out at once (the cucumber), and the last player left wins.

  The house variations are options of the same rules: the Danish threshold of 21, play without
  the ace rule, the three-card game, revival, reverse scoring and a fixed number of rounds.

  Rule: Two to seven players

    Scenario: Two players can play Gurka
      Given a game of gurka for 2 players
      When the cards are shuffled and dealt with seed 5
      Then every player holds 7 cards
      And seat 0 leads the first trick

    Scenario: Eight players are too many
      Then starting a game of gurka for 8 players is refused for the option "players"

  Rule: Holding a card at least as high as the highest in the trick, you must play one

    Background:
      Given a game of gurka for 4 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | 2C 5D 8H 9S JD KH AS  |
        | 1    | 3C 4S 6D 10C QH KS AD |
        | 2    | 2H 4D 7C 9D JS QD AH  |
        | 3    | 3D 5C 6S 7H 8D 10S QC |

    Scenario: Any card at least as high will do, but the lowest card is no longer a choice
      When seat 0 leads 9S
      Then seat 1 may play 10C, QH, KS and AD
      And playing 3C by seat 1 is refused with "must-follow"
      And the explanation mentions "9 or higher" and "10C, QH, KS, AD"

    Scenario: Only a player holding nothing high enough plays their lowest card
      When seat 0 leads 9S
      And seat 1 plays KS
      Then seat 2 may play only AH
      When seat 2 plays AH
      Then seat 3 may play only 3D
      And playing QC by seat 3 is refused with "must-follow"
      And the explanation mentions "lowest card 3D"

    Scenario: An ace that follows is an ordinary high card
      The ace rule is about a led ace only. Here seat 1's ace follows a nine, so seat 2 must still
      follow with its own ace, and that later ace takes the trick.

      When seat 0 leads 9S
      And seat 1 plays AD
      Then seat 2 may play only AH
      When seat 2 plays AH
      And seat 3 plays 3D
      Then seat 2 takes the trick

  Rule: The lowest card is any card of the lowest rank

    Scenario: Holding nothing high enough, a player may play either card of their lowest rank
      Given a game of gurka for 3 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | KS 3C 4C 5C 6C 7C 8C  |
        | 1    | 2C 2D 3S 9H 10H JH QH |
        | 2    | AS AD 4H 5H 6H 7H 8H  |
      When seat 0 leads KS
      Then seat 1 may play only 2C and 2D

  Rule: A led ace makes everyone else play their lowest card, and takes the trick

    Scenario: After a led ace, even another ace must wait
      Given a game of gurka for 4 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | 2C 5D 8H 9S JD KH AS  |
        | 1    | 3C 4S 6D 10C QH KS AD |
        | 2    | 2H 4D 7C 9D JS QD AH  |
        | 3    | 3D 5C 6S 7H 8D 10S QC |
      When seat 0 leads AS
      Then seat 1 may play only 3C
      And playing AD by seat 1 is refused with "must-play-lowest"
      And the explanation mentions "lowest card 3C"
      When seat 1 plays 3C
      Then seat 2 may play only 2H
      And playing AH by seat 2 is refused with "must-play-lowest"
      When seat 2 plays 2H
      And seat 3 plays 3D
      Then seat 0 takes the trick
      And seat 0 leads the next trick

    Scenario Outline: The leader's ace beats an ace played later, unless the ace rule is dropped
      A led ace meets another ace, the only card its player has left: the ace rule lets the
      leader's ace take the last trick, so the leader pays. Some Swedish groups drop the ace rule,
      and then the later ace takes the trick as usual.

      Given a game of gurka for 2 players with hand size 1 and ace lead <rule>
      When these one-card rounds are played:
        | round | seat 0 | seat 1 |
        | 1     | AS     | AH     |
      Then <payer> pays 14 points

      Examples:
        | rule | payer  |
        | on   | seat 0 |
        | off  | seat 1 |

  Rule: The tip from the rulebook: holding 4, 5, 6 and Q, you must play the Q

    Scenario Outline: The queen is forced in Gurka, but in Agurk the four is still allowed
      Four cards are dealt to show the hand of the tip. Against a nine on the table the queen is
      the only card high enough, and Gurka's rule says a high-enough card must be played.

      Given a game of <game> for 3 players with hand size 4
      And the cards are dealt:
        | seat | hand         |
        | 0    | 2C 7D 9H KS  |
        | 1    | 4S 5S 6S QS  |
        | 2    | 2D 3D 8C 10D |
      When seat 0 leads 9H
      Then seat 1 may play <allowed>

      Examples:
        | game  | allowed   |
        | gurka | only QS   |
        | agurk | 4S and QS |

  Rule: The player who takes the last trick pays the value of its highest card

    Scenario: A whole round: the later king takes the last trick and pays 13
      Given a game of gurka for 3 players
      And the cards are dealt:
        | seat | hand                  |
        | 0    | 2C 5D 8H 9S JD KH AS  |
        | 1    | 3C 4S 6D 10C QH KS AD |
        | 2    | 2H 4D 7C 9D JS QD 8C  |
      When the tricks are played:
        | trick | led by | cards     | taken by |
        | 1     | seat 0 | AS 3C 2H  | seat 0   |
        | 2     | seat 0 | 2C 4S 4D  | seat 2   |
        | 3     | seat 2 | 7C 8H 10C | seat 1   |
        | 4     | seat 1 | 6D 8C 9S  | seat 0   |
        | 5     | seat 0 | 5D QH QD  | seat 2   |
        | 6     | seat 2 | 9D JD AD  | seat 1   |
        | 7     | seat 1 | KS JS KH  | seat 0   |
      Then seat 0 pays 13 points
      And the scores for the round are 13, 0 and 0

    Scenario: A tie on the last trick: the later card pays, and there is no bonus for the earlier one
      Given a game of gurka for 3 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals    |
        | 1     | 2C     | KS     | 3C     | seat 1 | 0, 13, 0  |
        | 2     | QH     | QS     | 2D     | seat 0 | 12, 13, 0 |
      Then the scores for the round are 12, 0 and 0

  Rule: Reaching or passing the threshold (30, or 21 as in Denmark) puts a player out at once

    Scenario Outline: One crossing and you are out
      Given a game of gurka for 2 players with hand size 1 and threshold <threshold>
      When these one-card rounds are played:
        | round | seat 0   | seat 1 |
        | 1     | AS       | 2C     |
        | 2     | <second> | 2D     |
        | 3     | <third>  | 2H     |
      Then the totals are <total>, 0
      And seat 0 <status>

      Examples:
        | threshold | second | third | total | status               |
        | 30        | QH     | 3S    | 29    | is still in the game |
        | 30        | QH     | 4S    | 30    | is eliminated        |
        | 30        | QH     | 5S    | 31    | is eliminated        |
        | 21        | 3H     | 3S    | 20    | is still in the game |
        | 21        | 3H     | 4S    | 21    | is eliminated        |
        | 21        | 3H     | 5S    | 22    | is eliminated        |

    Scenario: The last player under the threshold wins
      Given a game of gurka for 2 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | pays   | totals |
        | 1     | AS     | 2C     | seat 0 | 14, 0  |
        | 2     | KH     | 3C     | seat 0 | 27, 0  |
        | 3     | 5S     | 4C     | seat 0 | 32, 0  |
      Then seat 0 is eliminated
      And seat 1 wins the match
      And the match is over

  Rule: Variation: Cucumber 3-card, where the third trick is the last

    Scenario: Three cards each, and only the third trick scores
      Given a game of gurka for 3 players with hand size 3
      And the cards are dealt:
        | seat | hand      |
        | 0    | 4C 9H KD  |
        | 1    | 2S 10C AH |
        | 2    | 6D 7S QC  |
      When the tricks are played:
        | trick | led by | cards     | taken by |
        | 1     | seat 0 | KD AH 6D  | seat 1   |
        | 2     | seat 1 | 10C QC 4C | seat 2   |
        | 3     | seat 2 | 7S 9H 2S  | seat 0   |
      Then seat 0 pays 9 points
      And the scores for the round are 9, 0 and 0

  Rule: Variation: Reverse Cucumber, where the lowest card of the last trick pays

    Scenario Outline: The lowest card pays the value of the highest
      Given a game of gurka for 3 players with hand size 1 and reverse on
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | <c0>   | <c1>   | <c2>   |
      Then <payer> pays <points> points

      Examples:
        | c0 | c1 | c2 | payer  | points |
        | 9S | QH | 4C | seat 2 | 12     |
        | 4S | QH | 4C | seat 2 | 12     |
        | 2S | QH | 4C | seat 0 | 12     |
        | 2S | 3H | AC | seat 0 | 14     |

    Scenario: With a tie bonus too, the earlier player of the paying rank gets it
      Reverse Cucumber in Agurk, whose tie bonus goes to whoever played the paying card's rank
      before the payer: in round 2 seat 1's 3S comes before seat 3's 3D, so seat 3 pays the king's
      13 and seat 1 goes from 14 down to 1.

      Given a game of agurk for 4 players with hand size 1 and reverse on
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | seat 3 | pays   | totals        |
        | 1     | AS     | 2C     | 3D     | 4D     | seat 1 | 0, 14, 0, 0   |
        | 2     | 5H     | 3S     | KD     | 3D     | seat 3 | 0, 1, 0, 13   |
      Then the scores for the round are 0, -13, 0 and 13

  Rule: Variation: Revival, buying back in once per match

    Scenario: An eliminated player buys back in, sits out a round and returns with the top score of the others
      Given a game of gurka for 3 players with hand size 1, threshold 10 and revival on
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals   |
        | 1     | QS     | 2C     | 3C     | seat 0 | 12, 0, 0 |
      Then seat 0 is eliminated
      And seat 0 must decide whether to buy back in
      And playing 5C by seat 0 is refused with "decision-expected"
      And seat 1 buying back in is refused with "not-your-turn"
      And drawing a random deal is refused with "unexpected-deal"
      When seat 0 buys back in
      Then seat 0 is still in the game
      And a deal is due
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   | totals  |
        | 2     | -      | 9D     | 5C     | seat 1 | 9, 9, 0 |
      Then the match is not over
      When the cards are dealt:
        | seat | hand |
        | 0    | AS   |
        | 1    | 2D   |
        | 2    | 3D   |
      Then seat 0 holds AS

    Scenario: A player who sits out receives no cards
      Given a game of gurka for 3 players with hand size 1, threshold 10 and revival on
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | QS     | 2C     | 3C     |
      And seat 0 buys back in
      Then dealing these hands is refused with "bad-deal":
        | seat | hand |
        | 0    | 4H   |
        | 1    | 9D   |
        | 2    | 5C   |
      When the cards are dealt:
        | seat | hand |
        | 1    | 9D   |
        | 2    | 5C   |
      Then seat 0 is dealt no cards
      And seat 2 leads the first trick

    Scenario: Revival is once per match
      Seat 0 buys back in, sits out round 2 and comes back with seat 2's 5 points. Out again in
      round 3, it is not offered a second chance, though three players are still in.

      Given a game of gurka for 4 players with hand size 1, threshold 10 and revival on
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | seat 3 | totals      |
        | 1     | QS     | 2C     | 3C     | 4C     | 12, 0, 0, 0 |
      And seat 0 buys back in
      And these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | seat 3 | totals      |
        | 2     | -      | 3D     | 5C     | 2D     | 5, 0, 5, 0  |
        | 3     | 9H     | 3H     | 4H     | 2H     | 14, 0, 5, 0 |
      Then seat 0 is eliminated
      And a deal is due
      And seat 0 buying back in is refused with "no-decision"

    Scenario: A player may decline to buy back in
      Given a game of gurka for 3 players with hand size 1, threshold 10 and revival on
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | totals   |
        | 1     | 2H     | 3H     | KS     | 0, 0, 13 |
      Then seat 2 must decide whether to buy back in
      When seat 2 stays out
      Then seat 2 is eliminated
      And a deal is due
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | totals    |
        | 2     | JH     | 2S     | -      | 11, 0, 13 |
      Then seat 0 is eliminated
      And seat 1 wins the match

    Scenario: No revival is offered when fewer than two other players are left
      Given a game of gurka for 3 players with hand size 1, threshold 10 and revival on
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | QS     | 2C     | 3C     |
      And seat 0 stays out
      Then seat 1 buying back in is refused with "no-decision"
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 2     | -      | KD     | 3D     |
      Then seat 1 is eliminated
      And seat 2 wins the match

  Rule: Variation: a fixed number of rounds, the lowest total winning

    Scenario: No one is eliminated, and the lowest total after the last round wins
      Given a game of gurka for 3 players with hand size 1, fixed rounds 3 and threshold 21
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | totals   |
        | 1     | AS     | 2C     | 3C     | 14, 0, 0 |
        | 2     | AH     | KS     | 2D     | 28, 0, 0 |
      Then seat 0 is still in the game
      And the match is not over
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | totals   |
        | 3     | 3D     | 5H     | 2H     | 28, 5, 0 |
      Then seat 2 wins the match

    Scenario: Equal lowest totals share the win
      Given a game of gurka for 3 players with hand size 1 and fixed rounds 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | AS     | 2C     | 3C     |
      Then seat 1 and seat 2 share the win
