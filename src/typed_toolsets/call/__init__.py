"""The call path: a model's arguments -> a value or a `ToolError` (see `.pipeline`).

The fast path reads JSON text in one pass; otherwise limits, strict JSON, structuring and, for
refused arguments, the schema's compiled checker (`.checker`: jsonschema's verdict, in linear
time); then the method runs.

May import: `typed_toolsets.rules`, `typed_toolsets.types`, `typed_toolsets.definition`,
`typed_toolsets._public` and the standard library (plus jsonschema); the package itself only to
name `Toolset` in an annotation, which it loads lazily. Never the built-in toolsets or the
integrations. Internal: the public names are re-exported by `typed_toolsets`.
"""
