"""The numba kernels of the solver: private; only the drivers in :mod:`tarock_solver.solver`
import them."""
