"""The type layer: annotation -> JSON Schema + structure and unstructure hooks, from one registry.

May import: `typed_toolsets.rules`, the standard library, attrs, cattrs, typing_extensions,
annotated_types and (lazily) jsonschema. Never the definition, call or integration layers.
Internal: the public names are re-exported by `typed_toolsets`.
"""
