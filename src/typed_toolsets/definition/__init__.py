"""The definition layer: what a Toolset class declares, read and checked once, at class creation.

May import: `typed_toolsets.rules`, `typed_toolsets.types`, `typed_toolsets._public`, the
standard library and attrs. Never the call path, the built-in toolsets or the integrations.
Internal: the public names are re-exported by `typed_toolsets`.
"""
