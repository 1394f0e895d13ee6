"""Triton kernels for the engine, each with a plain PyTorch reference beside it.

This package knows nothing of models. Every kernel `kernels.X` has a reference `kernels.X_ref`
(or a shared `*_ref.py` module) with the same signature; the engine runs the references on the CPU.
"""
