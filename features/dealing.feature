Feature: Dealing and chance
  The shuffle is not hidden inside the library. Every deal is an action of its own, recorded in
  the game's history like a card played: the caller draws it with `sample_chance` and a random
  generator of their own, or supplies it, from a server's shuffler, a physical deck or a test's
  rigged hands. While a deal is due nobody may play, and a deal that does not fit the rules is
  refused. So a game is reproduced exactly from its rules, its players and its actions.

  In the ladder games (Agurk, Gurka, Five Cucumbers) the starting player leads the first trick of
  the match and the seat before it deals. In Agurk and Gurka the deal then passes one seat
  clockwise each round and the next seat after the dealer leads, both skipping players who are
  out; in Five Cucumbers the player who paid leads the next round. Players who are out, or who sit
  out a round after buying back in, are dealt no cards.

  Rule: A deal is due before anyone plays

    Scenario: A new game waits for the deal
      Given a game of agurk for 4 players
      Then a deal is due
      And playing 5C by seat 0 is refused with "deal-expected"

    Scenario: No deal while a player is to act
      Given a game of agurk for 3 players with hand size 1
      When the cards are dealt:
        | seat | hand |
        | 0    | 2C   |
        | 1    | 3C   |
        | 2    | 4C   |
      Then dealing these hands is refused with "unexpected-deal":
        | seat | hand |
        | 0    | 5C   |
        | 1    | 6C   |
        | 2    | 7C   |
      And drawing a random deal is refused with "unexpected-deal"

  Rule: A random deal is drawn with the caller's own random generator

    Scenario: The same seed gives the same deal, and the library never touches the global generator
      Given a game of gurka for 5 players
      Then drawing a deal twice with seed 7 gives the same cards, whatever the global random state
      And seeds 7 and 8 give different deals

    Scenario Outline: Every game deals the right number of cards from its own deck
      Given a game of <game> for <players> players <options>
      When the cards are shuffled and dealt with seed <seed>
      Then every player holds <cards> cards
      And the hands hold only cards of the deck, none more often than the deck holds it

      Examples:
        | game           | players | options                    | seed | cards |
        | agurk          | 7       |                            | 1    | 7     |
        | gurka          | 2       |                            | 2    | 7     |
        | gurka          | 5       | with hand size 3           | 3    | 3     |
        | five-cucumbers | 6       |                            | 4    | 7     |
        | fuenf-gurken   | 4       |                            | 5    | 7     |
        | catastrophe    | 6       |                            | 6    | 10    |
        | catastrophe    | 3       | with Surprise Cucumber     | 7    | 10    |
        | catastrophe    | 6       | with Surprise Cucumber     | 8    | 8     |
        | catastrophe    | 4       | with If You Can't Beat 'Em | 9    | 10    |

    Scenario: If You Can't Beat 'Em always deals the six 5-cucumber cards
      Given a game of catastrophe for 3 players with If You Can't Beat 'Em
      When the cards are shuffled and dealt with seed 11
      Then every 5-cucumber card is in a hand

  Rule: A rigged deal must fit the rules

    Scenario Outline: Deals that are refused
      Given a game of agurk for 3 players with hand size 2
      Then dealing these hands is refused with "bad-deal":
        | seat | hand    |
        | 0    | <hand0> |
        | 1    | <hand1> |
        | 2    | <hand2> |
      And the explanation mentions "<reason>"

      Examples:
        | hand0 | hand1 | hand2    | reason                       |
        | 2C 3C | 4C 5C | 6C       | seat 2 must receive 2 cards  |
        | 2C 3C | 4C 5C | 6C 7C 8C | seat 2 must receive 2 cards  |
        | 2C 3C | 2C 5C | 6C 7C    | 2C appears 2 times           |
        | 2C 3C | 4C 5C | 6C 7     | 7 is not a card of this deck |

    Scenario: A ladder deal draws no starting player
      Given a game of agurk for 3 players with hand size 1
      Then dealing these hands, with seat 1 drawn to start, is refused with "bad-deal":
        | seat | hand |
        | 0    | 2C   |
        | 1    | 3C   |
        | 2    | 4C   |

    Scenario: A player who is out is dealt no cards
      Given a game of gurka for 3 players with hand size 1 and threshold 10
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   |
        | 1     | QS     | 2C     | 3C     | seat 0 |
      Then seat 0 is eliminated
      And dealing these hands is refused with "bad-deal":
        | seat | hand |
        | 0    | 4H   |
        | 1    | 5H   |
        | 2    | 6H   |
      When the cards are dealt:
        | seat | hand |
        | 1    | 5H   |
        | 2    | 6H   |
      Then seat 0 is dealt no cards

  Rule: Who deals and who leads in the ladder games

    Scenario: The starting player leads the first trick and the seat before it deals
      Given a game of agurk for 4 players
      And seat 2 is the starting player
      When the cards are shuffled and dealt with seed 3
      Then seat 1 is the dealer
      And seat 2 leads the first trick

    Scenario: The deal and the lead move one seat clockwise each round
      Given a game of agurk for 3 players with hand size 1
      When the cards are dealt:
        | seat | hand |
        | 0    | 2C   |
        | 1    | 3C   |
        | 2    | 4C   |
      Then seat 2 is the dealer
      And seat 0 leads the first trick
      When the tricks are played:
        | cards    |
        | 2C 3C 4C |
      And the cards are dealt:
        | seat | hand |
        | 0    | 2D   |
        | 1    | 3D   |
        | 2    | 4D   |
      Then seat 0 is the dealer
      And seat 1 leads the first trick
      When the tricks are played:
        | cards    |
        | 3D 4D 2D |
      And the cards are dealt:
        | seat | hand |
        | 0    | 2H   |
        | 1    | 3H   |
        | 2    | 4H   |
      Then seat 1 is the dealer
      And seat 2 leads the first trick

    Scenario: When the last leader is out, the lead passes over a seat
      Seat 2 deals the first round and seat 0 leads it, and loses. The deal moves on to seat 1,
      the next seat still in after seat 2, and seat 1 is followed by seat 2, who leads: seat 1
      never leads this time.

      Given a game of gurka for 3 players with hand size 1 and threshold 10
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | pays   |
        | 1     | QS     | 2C     | 3C     | seat 0 |
      And the cards are dealt:
        | seat | hand |
        | 1    | 5H   |
        | 2    | 6H   |
      Then seat 1 is the dealer
      And seat 2 leads the first trick

    Scenario: In Five Cucumbers the payer leads the next round, whoever dealt
      Given a game of five-cucumbers for 4 players with hand size 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | seat 3 | pays   |
        | 1     | 2      | 3      | 4      | 9      | seat 3 |
        | 2     | 5      | 2      | 6      | 3      | seat 2 |
      And the cards are dealt:
        | seat | hand |
        | 0    | 4    |
        | 1    | 5    |
        | 2    | 6    |
        | 3    | 7    |
      Then seat 2 leads the first trick
