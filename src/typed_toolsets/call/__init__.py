"""The call path: a model's arguments -> limits -> JSON -> validation -> structuring -> the method.

May import: `typed_toolsets.rules`, `typed_toolsets.types`, `typed_toolsets.definition` and the
standard library (plus orjson and jsonschema). Never the built-in toolsets or the integrations.
Internal: the public names are re-exported by `typed_toolsets`.
"""
