"""The `tarock` command-line interface (a thin click layer over tarock_solver)."""
