"""The built-in toolsets (text, GitHub CLI) and their hardened helpers.

May import the public API of the core (`typed_toolsets`), of the definition layer its errors,
limits and validators (`typed_toolsets.definition.errors`, `.limits`, `.validators`), the
sendable-text and control-escape rules (`typed_toolsets.rules.sendable`, `.controls`),
`typed_toolsets._public`, `typed_toolsets._ending` (its programs killed when the process ends),
the standard library,
attrs, annotated_types and google-re2 (`re2`, for ``text_filter_lines``);
the core never imports this layer. Public modules: `typed_toolsets.text`,
`typed_toolsets.github` and `typed_toolsets.builtins.exceptions`.
"""
