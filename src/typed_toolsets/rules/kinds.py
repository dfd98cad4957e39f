"""The kinds of definition problems: one error code and one message template each (`KINDS`).

Templates are `str.format` strings over ``toolset``, ``method``, ``parameter`` and the record's
values, with two format specs of their own: ``{x:names}`` lists names (``'a', 'b'``) and
``{x:suggest}`` writes ``; did you mean 'a' or 'b'?`` (nothing when there is no candidate); the
records and their rendering are `typed_toolsets.rules.problems`'.

Standard library only: the mypy plugin imports this module on every run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, NamedTuple

from .names import TOOL_NAME_PATTERN

__all__ = [
    "CHECK_ONLY_CODES",
    "CODE_PREFIX",
    "KINDS",
    "OVERLOAD_MARK",
    "PROBLEM_CODES",
    "STATIC_ONLY_CODES",
    "WARNING_CODES",
    "Kind",
    "Template",
]

#: Why ``@tool`` over ``@overload`` is refused (``tool-cannot-mark``, at run time and statically):
#: it would mark what ``@overload`` returns, which the class does not keep.
OVERLOAD_MARK: Final = (
    "the class keeps only the implementation; put @tool on the def without @overload"
)

#: Every error code starts with this (it is also the parent code in the mypy plugin).
CODE_PREFIX: Final = "toolset-"

Kind = Literal[
    "unknown-method",
    "exports-not-a-tuple",
    "exports-one-tool",
    "tool-attribute",
    "mixin-declaration",
    "exports-item",
    "exports-method",
    "tool-method-name",
    "not-exported",
    "proxy-of-class",
    "deleted-method",
    "annotated-attribute",
    "attribute",
    "attrs-field",
    "slot",
    "api-name",
    "special-method",
    "wrapped-method",
    "nested-class",
    "generator",
    "tool-not-a-method",
    "tool-cannot-mark",
    "duplicate-tool-name",
    "declared-twice",
    "invalid-tool-name",
    "toolset-name-type",
    "tool-name-type",
    "unreadable-signature",
    "no-self",
    "hidden-signature",
    "positional-only",
    "var-positional",
    "var-keyword",
    "unannotated",
    "none-default",
    "bad-default",
    "limits-type",
    "class-option-type",
    "option-field",
    "tool-option-type",
    "tool-options-form",
    "tool-spec-decorator",
    "inline-async",
    "inline-timeout",
    "unsupported-type",
    "bad-annotation",
    "unresolved-name",
    "init",
    "abstract-class",
    "ambiguous-union",
    "ambiguous-null",
    "unchecked-exports",
    "unchecked-exports-name",
    "unchecked-method-name",
    "unchecked-tool-name",
    "unchecked-toolset-name",
    "unchecked-mixin-toolset-name",
    "unchecked-type",
    "unchecked-metaclass",
    "unchecked-inline",
    "unchecked-conditional",
    "unchecked-binding",
    "unchecked-arguments",
    "unchecked-decorator",
    "raised",
]


class Template(NamedTuple):
    """How one kind of problem is reported.

    Attributes:
        code: Its error code, without `CODE_PREFIX` (one of `PROBLEM_CODES`).
        text: Its message, a `str.format` template (see the module docstring).
    """

    code: str
    text: str


_ONLY: Final = "only plain instance methods (def or async def) can be exported"
_ONLY_SHORT: Final = "only plain instance methods can be exported"
_KEYWORDS: Final = "declare keyword parameters instead"
_WRITE_EXPORTS: Final = (
    "write the tool(...) calls in the class body, or in a Final tuple of this module (tuples "
    "joined with `+`, repeated with `*` or unpacked with `*` are read too)"
)
#: Why a name cannot be read: mypy records the value of a literal, and of a Final constant set
#: to one (or to literals and such constants joined with +), not of one set from another name.
_UNKNOWN_VALUE: Final = (
    "it is neither a string literal nor a Final constant whose value mypy knows: one set to a "
    "literal, not from another name"
)
_WRITE_NAME: Final = "write the name as a literal, or set a Final constant to the literal"
_PATTERN: Final = TOOL_NAME_PATTERN.replace("{", "{{").replace("}", "}}")

#: The code and the message template of every kind of problem.
KINDS: Final[Mapping[Kind, Template]] = {
    # -- unknown-method: a declaration that names no method
    "unknown-method": Template(
        "unknown-method", "{toolset} has no method {method!r} to export{matches:suggest}"
    ),
    "exports-not-a-tuple": Template(
        "unknown-method", "`exports` must be a tuple of tool(...) declarations (got {got})"
    ),
    "exports-one-tool": Template(
        # `exports = (tool("a"))`: the parentheses alone make no tuple.
        "unknown-method",
        "`exports` is one tool({name!r}) declaration, not a tuple of them; add a trailing "
        "comma: exports = (tool({name!r}),)",
    ),
    "tool-attribute": Template(
        # `count = tool("word_count")` in the class body, outside `exports`: it declares nothing.
        "unknown-method",
        "`{attribute} = tool({got})` declares no tool by itself; list it in `exports` "
        "(exports = (tool({got}),)) or write @tool on the method",
    ),
    "mixin-declaration": Template(
        # `@tool` (or `exports`) in a base that is not a Toolset: only Toolsets' are inherited.
        "unknown-method",
        "{mixin} declares the tool {method!r} but is not a Toolset, so {toolset} does not "
        "inherit the declaration (nothing exports {method!r}); derive {mixin} from Toolset, or "
        "declare {method!r} in {toolset}",
    ),
    "exports-item": Template(
        "unknown-method", "`exports` contains {got}, not a tool(...) declaration"
    ),
    "exports-method": Template(
        "unknown-method",
        '`exports` contains {got}, not a tool(...) declaration (use tool("name"), not the '
        "method itself)",
    ),
    "tool-method-name": Template(
        "unknown-method", "the method name must be a non-empty str (got {got})"
    ),
    "not-exported": Template(
        "unknown-method",
        "{method!r} is not exported as a tool; declare it with tool({method!r}) in `exports` "
        "or with @tool, or hold a method that is exported",
    ),
    "proxy-of-class": Template(
        # `Toolset.proxy(Tasks.search)`: a TypeError at run time, in these words.
        "not-a-method",
        "Toolset.proxy() takes a method of a toolset instance, not the class's function: make "
        "an instance and pass its method, as in Toolset.proxy({toolset}().{method})",
    ),
    "deleted-method": Template(
        # `del Cls.method` after the class was created: only the run time sees it.
        "unknown-method",
        "{toolset} exports {method!r}, but the method was deleted after the class was defined; "
        "define it again, or remove its declaration (its @tool, or its tool(...) in `exports`)",
    ),
    # -- not-a-method: the name is something other than a plain `def` / `async def`
    "annotated-attribute": Template(
        "not-a-method", "{method!r} is an annotated attribute (an attrs field), not a method"
    ),
    "attribute": Template(
        "not-a-method", f"{{method!r}} is an attribute, not a method; {_ONLY_SHORT}"
    ),
    "attrs-field": Template(
        "not-a-method", f"{{method!r}} is an attrs field, not a method; {_ONLY_SHORT}"
    ),
    "slot": Template(
        "not-a-method",
        f"{{method!r}} is a slot (named in `__slots__`), not a method; {_ONLY_SHORT}",
    ),
    "api-name": Template(
        "not-a-method", "{method!r} is part of the Toolset API and cannot be exported"
    ),
    "special-method": Template(
        "not-a-method", "{method!r} is a special method and cannot be exported"
    ),
    "wrapped-method": Template("not-a-method", f"{{method!r}} is a {{wrapper}}; {_ONLY}"),
    "nested-class": Template("not-a-method", f"{{method!r}} is a nested class; {_ONLY_SHORT}"),
    "generator": Template(
        "not-a-method",
        "{method!r} is a generator; only methods that return a value can be exported",
    ),
    "tool-not-a-method": Template("not-a-method", "@tool can only decorate a method (got {got})"),
    "tool-cannot-mark": Template("not-a-method", "@tool cannot mark {got}: {reason}"),
    # -- duplicate-name
    "duplicate-tool-name": Template(
        "duplicate-name", "the tool name {name!r} is already exported by the method {other!r}"
    ),
    "declared-twice": Template(
        "duplicate-name", "the method {method!r} is declared twice in this class"
    ),
    # -- invalid-name
    "invalid-tool-name": Template(
        "invalid-name",
        f"the tool name {{name!r}} is not valid for LLM APIs: {{reason}} (names must match "
        f"{_PATTERN}: letters, digits, '_' and '-', at most 64 characters, not starting with a "
        "digit or '-')",
    ),
    "toolset-name-type": Template("invalid-name", "`toolset_name` must be a str (got {got})"),
    "tool-name-type": Template("invalid-name", "`tool_name` must be a str or None (got {got})"),
    # -- signature: the method (or a declaration's option) cannot be used as declared
    "unreadable-signature": Template("signature", "its signature cannot be read ({reason})"),
    "no-self": Template(
        "signature",
        "it takes no `self`; a tool is an instance method: make `self` its first parameter",
    ),
    "hidden-signature": Template(
        "signature",
        "it is a function named {wrapper!r} that takes only *args and **kwargs: a decorator "
        "without functools.wraps hides the method's parameters; decorate its wrapper with "
        "@functools.wraps(<the method>)",
    ),
    "positional-only": Template(
        "signature",
        "parameter {parameter!r} is positional-only; tools are called with keywords, remove "
        "the '/'",
    ),
    "var-positional": Template("signature", f"'*{{parameter}}' is not supported; {_KEYWORDS}"),
    "var-keyword": Template("signature", f"'**{{parameter}}' is not supported; {_KEYWORDS}"),
    "unannotated": Template(
        "signature",
        "parameter {parameter!r} has no type annotation; annotate it so it gets a JSON Schema",
    ),
    "none-default": Template(
        "signature",
        "parameter {parameter!r} defaults to None but its type {type} does not admit null; "
        "add `| None` to its annotation (a None default does not make a parameter nullable)",
    ),
    "bad-default": Template(
        "signature",
        "parameter {parameter!r} has the default {default}, which is not a valid {type} ({reason})",
    ),
    "limits-type": Template("signature", "`limits` must be a Limits (got {got})"),
    "class-option-type": Template("signature", "`{option}` must be {expected} (got {got})"),
    "option-field": Template(
        "signature",
        "`{option}` is a field of each instance (annotated in an attrs class or a dataclass, or "
        "named in `__slots__`), not a class option: `{option}=` given to the constructor "
        "changes nothing, and the class itself may not keep the value (attrs removes it, a slot "
        "replaces it); a class option is a class attribute: drop the annotation, or annotate it "
        "`ClassVar[...]`",
    ),
    "tool-option-type": Template(
        "signature", "`{option}` must be a {expected} or None (got {got})"
    ),
    "tool-options-form": Template(
        "signature", "pass options as @tool(description=...), not @tool(method, ...)"
    ),
    "tool-spec-decorator": Template(
        # `@tool("name")`, as some agent frameworks spell a tool's name.
        "signature",
        "tool({got}) is the `exports` form, which takes a method name; on the method write "
        "@tool, or @tool(tool_name=..., description=...) to set its name or description",
    ),
    # -- inline: ``tool(..., inline=True)`` where running on the event loop cannot be what it says
    "inline-async": Template(
        "inline",
        "{method!r} is an async def, which always runs on the event loop; inline=True is only "
        "for sync methods, remove it",
    ),
    "inline-timeout": Template(
        "inline",
        "inline=True runs {method!r} on the event loop, where it cannot be stopped at a "
        "deadline, but its limits set timeout={timeout}; remove inline=True (it then runs in a "
        "worker thread), or give the tool limits without one "
        "(tool(..., limits=attrs.evolve({toolset}.limits, timeout=None)))",
    ),
    # -- param-type: an annotation with no JSON Schema
    "unsupported-type": Template(
        "param-type",
        "parameter {parameter!r} has type {type}, which has no JSON Schema ({reason})",
    ),
    "bad-annotation": Template("param-type", "parameter {parameter!r}: {reason}"),
    "unresolved-name": Template(
        "param-type",
        "{parameter:where}an annotation names {name!r}, which Python cannot find when it "
        "resolves the "
        "annotation; define or import it at the module's top level (an import under "
        "`if TYPE_CHECKING:` or a name inside a function is not enough)",
    ),
    # -- init: `Cls.to_tools()` cannot build `Cls()`
    "init": Template(
        "init",
        "{toolset}.to_tools() calls {toolset}() with no arguments, but the constructor needs "
        "{needed:names}; give each a default, or call to_tools() on an instance",
    ),
    "abstract-class": Template(
        "init",
        "{toolset}.to_tools() calls {toolset}(), but {toolset} is abstract (it does not "
        "implement {methods:names}); implement them, or call to_tools() on a concrete subclass",
    ),
    # -- ambiguous-union (a warning of `check`)
    "ambiguous-union": Template(
        "ambiguous-union",
        "parameter {parameter!r} has the union {union}, and a JSON value can match both {first} "
        "and {second} (the first one in declared order wins)",
    ),
    "ambiguous-null": Template(
        # A union with None, and a variant that takes null too: null always gives None.
        "ambiguous-union",
        "parameter {parameter!r} has the union {union}, and a JSON null can match both {first} "
        "and {second} (null always gives None, whatever the order)",
    ),
    # -- unchecked: what the mypy plugin cannot read (only the plugin reports these)
    "unchecked-exports": Template(
        "unchecked",
        "the exports given as {expression} cannot be checked statically (mypy cannot tell which "
        f"tool(...) calls it holds); {_WRITE_EXPORTS}",
    ),
    "unchecked-exports-name": Template(
        "unchecked",
        "the exports given as {expression} cannot be checked statically (it is not a Final "
        f"constant of this module); {_WRITE_EXPORTS}",
    ),
    "unchecked-method-name": Template(
        "unchecked",
        "the method name given as {expression} cannot be checked statically "
        f"({_UNKNOWN_VALUE}); {_WRITE_NAME}",
    ),
    "unchecked-tool-name": Template(
        "unchecked",
        "the tool name given as {expression} cannot be checked statically "
        f"({_UNKNOWN_VALUE}); {_WRITE_NAME}",
    ),
    "unchecked-toolset-name": Template(
        "unchecked",
        "`toolset_name` given as {expression} cannot be checked statically, nor the tool names "
        f"made from it ({_UNKNOWN_VALUE}); {_WRITE_NAME}",
    ),
    "unchecked-mixin-toolset-name": Template(
        "unchecked",
        "`toolset_name` comes from {mixin}, which is not a Toolset and does not set it to a "
        "string literal, so it cannot be checked statically, nor the tool names made from it; "
        "write it as a string literal there, or set it in a Toolset class",
    ),
    "unchecked-arguments": Template(
        "unchecked",
        "the arguments unpacked from {expression} cannot be checked statically (mypy cannot "
        "tell which method name or options they hold); pass the method name and each option "
        "as its own argument (a literal or a Final constant)",
    ),
    "unchecked-inline": Template(
        "unchecked",
        "whether {method!r} may run inline cannot be checked statically ({expression} is not "
        "True or False, nor Limits(...) with a literal timeout); write literals there, or check "
        "the class with `typed-toolsets check`",
    ),
    "unchecked-conditional": Template(
        "unchecked",
        "{declaration} inside {block} cannot be checked statically (which tools the class "
        "declares then depends on what runs when the class is created); declare it at the top "
        "level of the class body, or check the class with `typed-toolsets check`",
    ),
    "unchecked-binding": Template(
        "unchecked",
        "`{name}` bound by {binding} cannot be checked statically (the plugin reads it from "
        "`{name} = ...` in the class body); write it so, or check the class with "
        "`typed-toolsets check`",
    ),
    "unchecked-decorator": Template(
        "unchecked",
        "the decorator @{expression} cannot be checked statically (mypy cannot tell whether it "
        "is tool, which would declare the method a tool); write @tool or @tool(...) itself "
        "there (or a name bound to tool), or check the class with `typed-toolsets check`",
    ),
    "unchecked-type": Template(
        "unchecked",
        "parameter {parameter!r} uses {name}, which mypy cannot see (its module is not "
        "analysed), so its JSON Schema cannot be checked statically; give mypy that module's "
        "types (a stub package), or silence this code where the type is registered",
    ),
    "unchecked-metaclass": Template(
        "unchecked",
        "mypy does not check a class with the custom metaclass {metaclass} (it does not simulate "
        "its __init_subclass__), so none of its declarations can be checked statically; remove "
        "the metaclass, or check the class with `typed-toolsets check`",
    ),
    # -- raised: a ToolsetDefinitionError raised with its own message (only `check` reports it)
    "raised": Template("raised", "{message}"),
}

#: The error codes, without `CODE_PREFIX`, shared by the runtime, ``check`` and the plugin.
PROBLEM_CODES: Final = frozenset(template.code for template in KINDS.values())

#: Codes that ``check`` reports as warnings (the library still runs: the declared order decides).
WARNING_CODES: Final = frozenset({"ambiguous-union"})

#: Codes only the mypy plugin reports: what it cannot read statically, the run time sees.
STATIC_ONLY_CODES: Final = frozenset({"unchecked"})

#: Codes only ``check`` reports: a definition error the checked code raised in its own words
#: (the run time raises it as it was raised; the plugin does not run the code).
CHECK_ONLY_CODES: Final = frozenset({"raised"})
