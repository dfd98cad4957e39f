"""Run-time analysis of Toolset classes: ambiguous unions and ``typed-toolsets check``.

May import the core (`typed_toolsets.rules`, `.types`, `.definition`, `.call`, `Toolset`).
Never the built-in toolsets or the integrations; only the CLI imports this layer.
"""
