"""tarock-solver: double-dummy analysis and bidding advice for Illustrated Tarock."""

__version__ = "0.1.0"
