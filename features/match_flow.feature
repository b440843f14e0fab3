Feature: How a match runs
  Every game of the family runs the same way. A match starts waiting for a deal. Once the cards
  are dealt, the players act one at a time, and the state always says who is to act: a seat, the
  dealer's shuffle (a deal is due), or nobody once the match is over. At the end of each round,
  or each hand in Cucumber Catastrophe, the scores are settled and the next deal is due, until the
  match has its winners: the last player left in the elimination games, the lowest total after a
  fixed number of rounds or hands otherwise.

  An elimination game has a round limit too (`round_limit`), so that no match can go on forever:
  rounds that cost nothing (a Five Cucumbers trick of 1s) or tie bonuses could otherwise keep
  everyone in. A match still undecided after that many rounds ends there, and the lowest total
  among the players still in wins; equal totals share the win. The presets set no limit of their
  own: theirs is automatic, four times the number of players times the lives times one more than
  the threshold (twice that with revival), plus 50 rounds, which no match comes near in play.

  The score can be read at any moment. Its standings rank every player, best first. And since
  every action, the deals included, is kept in the game's history, the record of a game replays
  it exactly.

  Rule: Every game plays to a finish

    Scenario Outline: Elimination games end with one player left
      Given a game of <game> for <players> players <options>
      When the match is played to the end with random choices from seed <seed>
      Then the match is over
      And exactly one player is left in the game, and wins
      And replaying the game's record gives the same game

      Examples:
        | game           | players | options           | seed |
        | agurk          | 4       |                   | 1    |
        | agurk          | 7       |                   | 2    |
        | gurka          | 2       |                   | 3    |
        | gurka          | 5       | with revival on   | 4    |
        | gurka          | 3       | with threshold 21 | 5    |
        | five-cucumbers | 6       |                   | 6    |
        | fuenf-gurken   | 3       |                   | 7    |

    Scenario Outline: Games of a fixed length end after their last round or hand
      Given a game of <game> for <players> players <options>
      When the match is played to the end with random choices from seed <seed>
      Then the match is over
      And <rounds> have been played
      And replaying the game's record gives the same game

      Examples:
        | game        | players | options                                          | seed | rounds   |
        | gurka       | 4       | with fixed rounds 5                              | 8    | 5 rounds |
        | catastrophe | 3       |                                                  | 9    | 4 hands  |
        | catastrophe | 6       | with Surprise Cucumber                           | 10   | 4 hands  |
        | catastrophe | 4       | with Surprise Cucumber and If You Can't Beat 'Em | 11   | 4 hands  |
        | catastrophe | 5       | with hand count 2                                | 12   | 2 hands  |

  Rule: An elimination game still undecided at its round limit ends there, the lowest total still in winning

    Scenario: Rounds that cost nothing cannot go on forever
      A trick of 1s costs its taker nothing in Five Cucumbers. With a round limit of 2, two such
      rounds end the match: nobody has a cucumber, so all three share the win.

      Given a game of five-cucumbers for 3 players with hand size 1 and round limit 2
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | totals  |
        | 1     | 1      | 1      | 1      | 0, 0, 0 |
      Then the match is not over
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | totals  |
        | 2     | 1      | 1      | 1      | 0, 0, 0 |
      Then the match is over
      And seat 0, seat 1 and seat 2 share the win

    Scenario: At the limit the lowest total wins, and the standings follow the totals
      Given a game of gurka for 3 players with hand size 1 and round limit 2
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | totals    |
        | 1     | AS     | 2C     | 3C     | 14, 0, 0  |
        | 2     | 2D     | 5H     | 3D     | 14, 5, 0  |
      Then seat 2 wins the match
      And the match is over
      And 2 rounds have been played
      And the standings are seat 2, seat 1 and seat 0

    Scenario: Only players still in can win at the limit; equal totals share
      Given a game of gurka for 4 players with hand size 1, threshold 10 and round limit 2
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | seat 3 | totals       |
        | 1     | QS     | 2C     | 3C     | 4C     | 12, 0, 0, 0  |
        | 2     | -      | 5H     | 2D     | 3D     | 12, 5, 0, 0  |
      Then seat 0 is eliminated
      And seat 2 and seat 3 share the win
      And the standings are seat 2, seat 3, seat 1 and seat 0

    Scenario: A player put out in the last round is not offered revival
      Given a game of gurka for 4 players with hand size 1, threshold 10, revival on and round limit 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 | seat 3 |
        | 1     | QS     | 2C     | 3C     | 4C     |
      Then seat 0 is eliminated
      And the match is over
      And seat 1, seat 2 and seat 3 share the win

  Rule: Between rounds a deal is due, and the score is there at every moment

    Scenario: A round from deal to score
      Given a game of agurk for 3 players with hand size 1
      Then a deal is due
      And the totals are 0, 0 and 0
      And the match is not over
      When the cards are dealt:
        | seat | hand |
        | 0    | 2C   |
        | 1    | QH   |
        | 2    | 3D   |
      Then it is seat 0's turn
      When seat 0 leads 2C
      Then it is seat 1's turn
      When seat 1 plays QH
      And seat 2 plays 3D
      Then seat 1 pays 12 points
      And the scores for the round are 0, 12 and 0
      And the totals are 0, 12 and 0
      And a deal is due
      And replaying the game's record gives the same game

    Scenario: The record of a game stopped in the middle of a trick replays it
      Given a game of gurka for 3 players
      When 40 actions are taken at random with seed 22
      Then the match is not over
      And replaying the game's record gives the same game

  Rule: The standings rank every player, best first

    Scenario: In an elimination game, the winner, then the last player out, then the first
      Given a game of agurk for 3 players with hand size 1 and threshold 10
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | QS     | 2C     | 3C     |
        | 2     | KS     | 2D     | 3D     |
        | 3     | -      | JS     | 4C     |
        | 4     | -      | AS     | 2H     |
      Then seat 2 wins the match
      And the standings are seat 2, seat 1 and seat 0

    Scenario: In Cucumber Catastrophe, fewest cucumbers first
      Given a game of catastrophe for 3 players with hand size 1 and hand count 1
      When these one-card rounds are played:
        | round | seat 0 | seat 1 | seat 2 |
        | 1     | 10     | 20     | 30     |
      Then the scores for the hand are 0, 0 and 3
      And seat 0 and seat 1 share the win
      And the standings are seat 0, seat 1 and seat 2
