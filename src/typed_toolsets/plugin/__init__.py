"""The mypy plugin's implementation; its entry point is `typed_toolsets.mypy`.

mypy loads the plugin on every run, so these modules import only mypy, the standard library
and the standard-library-only `typed_toolsets.rules` (plus `typed_toolsets._version`, for the
cache key); a test enforces it. The checks mirror the runtime's (`typed_toolsets.definition`)
and report the same `typed_toolsets.rules.problems.Problem` records.

- `fullnames`: the library objects the plugin hooks, by their fully qualified names;
- `codes`: the error codes and how a record is reported to mypy;
- `config`: the plugin's configuration and the digest of the rules (mypy's cache key);
- `declarations`: reading ``tool()`` declarations during semantic analysis, and their metadata;
- `body`: a class body's statements as the plugin reads them, and which bind a declaring
  attribute in a way it does not read;
- `decorators`: the ``@tool`` marks of a class body's methods (and above an ``@overload``);
- `sources`: what a method's source shows (parameter names, None defaults as written, names
  Python cannot resolve), recorded with the declarations;
- `classes`: the checks of a class once it is defined (names, kinds, duplicates);
- `signatures`: the checks of an exported method's parameters;
- `jsontypes`: which types have a JSON Schema (the runtime's type table, on mypy's types);
- `shapes`: the JSON values a type admits, for the ambiguity analysis;
- `typeinfo`: reading attrs classes, dataclasses and enums from mypy's symbol table;
- `calls`: ``Cls.to_tools()`` on a class that cannot be built with no arguments;
- `deps`: what a verdict depends on in other modules (incremental mode, ``-n``, the daemon).
"""
