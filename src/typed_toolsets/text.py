r"""`TextProcessingToolset`: DSPy.rb's text tools (the seed), with its outputs, without its holes.

Import it by name (``import typed_toolsets`` does not load it)::

    from typed_toolsets.text import TextProcessingToolset

    tools = TextProcessingToolset.to_tools()
    tools[1].dynamic_call({"text": "one two\nthree"})  # 'Lines: 2, Words: 3, Characters: 13'

The eight tools, their names, descriptions, parameters, defaults and output strings are the
seed's (DSPy.rb ``TextProcessingToolset``), including its text semantics: lines end after
``\n`` only, words are split on ASCII whitespace, characters are code points, and
``extract_lines`` slices like Ruby. What changes is how they run:

- ``text_grep`` and ``text_rg`` run ``grep``/``rg`` (found with `shutil.which` on the caller's
  ``PATH`` at each call) from an argument vector, never a shell: the pattern is only ever the
  value of ``-e``, the text goes through stdin (no temporary file on any path), rg starts with
  ``--no-config``, both get ``--color=never`` and an environment of just ``PATH`` and
  ``LC_ALL=C.UTF-8``. Each run has a deadline (`timeout`, 10 s) that kills the whole process
  group and a combined stdout+stderr cap (`max_output_bytes`, 1 MB) enforced while reading;
  output cut at the cap ends with a ``[truncated: ...]`` note.
- Every tool's output, and a pattern quoted in an answer or an error, shows control characters
  (ANSI/OSC escapes, BEL, C1 controls, DEL, a carriage return outside CRLF) as ``\xNN``, and
  the bidirectional overrides and isolates as ``\uNNNN``: what grep and rg print and what the
  pure-Python tools compute are escaped alike.
- grep takes POSIX *extended* regular expressions (``grep -E``: ``ERROR|WARN`` works; ``\d`` is
  not a digit class, use ``[0-9]`` or ``text_rg``); the seed's basic-regex grep silently matched
  nothing for such patterns.
- ``text_filter_lines`` matches with RE2 (google-re2), never Python's ``re``: linear time for any
  pattern; syntax RE2 lacks (backreferences, lookaround) is an error naming the construct.
- Every text and pattern has a size cap: text `max_text_bytes` (8 MB) on every path (the model
  path is bounded first by ``Limits.max_argument_bytes``), patterns 4096 bytes, and tools that
  hold every line in memory at most `max_lines` lines.

Errors. Success outputs and the seed's ``No matches found for pattern '<p>'`` are returned as
strings. The problems the seed hid are raised as `BuiltinToolError` subclasses (which the
model-facing call turns into ``Error: Tool 'text_grep' failed: <Class>: <message>``):
`ProgramNotFoundError` (grep or rg missing), `InvalidPatternError` (empty, NUL, a newline for
grep, or rejected by the engine), `ProgramTimeoutError` (deadline), `InputTooLargeError`
(a cap), `InvalidArgumentError` (a lone surrogate in the text for grep or rg, or a ``context``
that is not an integer from 0 to 100 on the direct ``call`` path), `ProgramFailedError` (a
program that could not start or crashed). Which checks run on which path:
docs/builtin-toolsets.md, "Which checks run where".
"""

from __future__ import annotations

from typed_toolsets.builtins.text import *  # noqa: F403 - the public names, listed in __all__
from typed_toolsets.builtins.text import __all__ as __all__
