"""The call path: a model's arguments -> a value or a `ToolError` (see `.pipeline`).

The fast path reads JSON text in one pass; otherwise limits, strict JSON, structuring and, for
refused arguments, the schema's compiled checker (`.checker`: jsonschema's verdict, in linear
time); then the method runs.

May import: `typed_toolsets.rules`, `typed_toolsets.types`, `typed_toolsets.definition`,
`typed_toolsets._public`, the standard library, attrs, typing_extensions, jsonschema and (lazily)
cattrs; the package itself only for
`Toolset`, which it loads lazily (an annotation names it; a proxy loaded from a pickle finds its
class's exports below it). Never the built-in toolsets or the
integrations. Internal: the public names are re-exported by `typed_toolsets`.
"""
