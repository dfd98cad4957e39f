"""The type layer: annotation -> JSON Schema + structure and unstructure hooks, from one registry.

Also a method's arguments as one closed object (`arguments`), the evaluation of annotations
(`hints`), the code generator (`gen`, compiling through `compiled`) and the fast path that reads
JSON text (`fastpath`) and what it tells the exact path about the arguments it hands over
(`handover`).

May import: `typed_toolsets.rules`, `typed_toolsets._public`, the standard library, attrs,
cattrs, typing_extensions, annotated_types and, lazily, jsonschema, orjson, msgspec and jiter
(the fast path's readers; each optional: without it, the same results more slowly). Never
the definition, call or integration layers. Internal: the public names are re-exported by
`typed_toolsets`.
"""
