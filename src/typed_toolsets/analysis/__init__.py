"""Run-time analysis of Toolset classes: ambiguous unions and ``typed-toolsets check``.

- `ambiguity`: the runtime's shapes of annotations, for the shared ambiguity analysis;
- `targets`: loading the Toolset classes a command-line target names (shared by the commands);
- `sources`: where classes, declarations, methods and parameters are in a target's source;
- `origins`: the class and the user code lines a definition error raised while importing is of;
- `check`: ``typed-toolsets check`` itself.

May import the core (`typed_toolsets.rules`, `.types`, `.definition`, `.call`, `Toolset`).
Never the built-in toolsets or the integrations; only the CLI and `typed_toolsets.testing`
(which warns of the ambiguous unions `check` finds) import this layer.
"""
