import random, time, sys
import numpy as np
from tarock_solver.french.cards import N_CARDS, cards_of, mask_of
from tarock_solver.french.solver import FrenchSearch, FrenchPosition
from tarock_solver.french.oracle import oracle_points, oracle_outcome_value
from tarock_solver.french.play import PlayState, legal_cards
rng = random.Random(int(sys.argv[1]))
ex = sys.argv[2]
S = FrenchSearch(tt_bits=14, excuse_last=ex)
bad = 0; n=0
t0=time.time()
while n < int(sys.argv[3]):
    k = rng.choice([1,2,3,4])
    cards = rng.sample(range(N_CARDS), 4*k)
    if rng.random() < 0.5 and 21 not in cards: cards[0] = 21
    if rng.random() < 0.5 and 0 not in cards: cards[1] = 0
    hands = [mask_of(cards[i*k:(i+1)*k]) for i in range(4)]
    leader, taker = rng.randrange(4), rng.randrange(4)
    tk, df = rng.random()<0.7, rng.random()<0.7
    owed = rng.choice([0,1]) if not tk else (rng.choice([0,2]) if not df else 0)
    inplay = sum(1 for c in cards if c in (0,20,21))
    st = PlayState(rng.randrange(0, 60), rng.randrange(0, 4-inplay), tk, df, owed)
    # a trick in progress: play up to 3 random legal cards
    trick = []
    for j in range(rng.randrange(0, 4) if k > 1 else 0):
        m = (leader + j) % 4
        c = rng.choice(cards_of(legal_cards(hands[m], trick)))
        hands[m] ^= 1 << c; trick.append(c)
    hands = tuple(hands)
    pos = FrenchPosition(hands, leader, taker, tuple(trick), st)
    a = oracle_points(hands, leader, taker, trick, st, excuse_last=ex)
    b = S.points(pos).value
    table = np.random.default_rng(n).integers(-50, 50, size=(183,4,3,3))
    c = oracle_outcome_value(hands, leader, taker, table, trick, st, excuse_last=ex)
    d = S.outcome_value(pos, table).value
    n += 1
    if a != b or c != d:
        bad += 1
        if bad < 5: print("MISMATCH", n, k, trick, a, b, c, d, st)
print("positions", n, "bad", bad, round(time.time()-t0,1))
