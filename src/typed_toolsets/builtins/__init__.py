"""The built-in toolsets (text, GitHub CLI) and their hardened helpers.

May import the public API of the core (`typed_toolsets`) and the standard library; the core
never imports this layer. Public modules: `typed_toolsets.text`, `typed_toolsets.github` and
`typed_toolsets.builtins.exceptions`.
"""
