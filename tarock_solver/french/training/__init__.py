"""The French Tarot evaluator's labels and trainer (exact solves, then look-ahead rounds)."""
