"""The definition rules, shared by the runtime and the mypy plugin.

Standard library only, and nothing here imports the rest of the package: the mypy plugin loads
these modules on every run and must stay cheap. Every other layer may import them.
"""
