"""How the learned evaluator (:mod:`tarock_solver.estimate`) is made: its labels and training.

* :mod:`.positions` — the seeded sampler of positions to label (post-exchange,
  biddable, advised, random, short);
* :mod:`.labels` — exact labels from the solver, resumable and byte-reproducible
  (``python -m tarock_solver.training.labels``), and :func:`.labels.load_labels`;
* :mod:`.boosting`, :mod:`.train` — the seeded numpy trainer and its command
  (``python -m tarock_solver.training.train``).

An analysis layer: it uses the solver, the adviser's exchanges (``advised``
positions) and the shared checkpoints; nothing at inference time imports it.
The label files themselves are ``data/evaluator/*.npz`` of a source checkout
(``docs/EVALUATOR.md``).
"""
