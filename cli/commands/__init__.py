"""One module per `tarock` command; each exposes ``command``."""
