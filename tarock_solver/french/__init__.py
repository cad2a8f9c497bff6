"""French Tarot (the French federation's rules of 2012): the second game on the engine.

78 cards, four players (three and five in the rules model and the scoring), one taker
against the others.  Each module has one job and its own layer (tests/test_layers.py):

* :mod:`.cards` — the pack: card indices, half-point values, oudlers, seats;
* :mod:`.rules` — profiles and options (``fft`` the default);
* :mod:`.play` — the trick rules: legal cards, the winner, the Excuse's card points;
* :mod:`.chien` — legal chien discards;
* :mod:`.scoring` — the contract's score and the marque;
* :mod:`.deal` — a deal (hands, chien) and seeded random deals;
* :mod:`.notation`, :mod:`.deal_files` — reading and writing cards, hands, deals, files;
* :mod:`.diagram` — the printed deal with its card points;
* :mod:`.solver` — the exact double-dummy solver; :mod:`.oracle` its brute-force reference.

Illustrated Tarock is the package's other game (:mod:`tarock_solver.games` names both).
"""
