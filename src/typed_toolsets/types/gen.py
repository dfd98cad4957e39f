"""Code generation: the structuring and unstructuring functions of object types.

Each object type (an attrs class, a dataclass, a TypedDict, a NamedTuple, or a method's
arguments) gets one function that checks a JSON object and builds the value in a single pass,
generated once, so the per-call cost is a handful of dictionary lookups. The generated source is
registered with `linecache`, so tracebacks show it (``<typed_toolsets generated ...>``), as
cattrs' ``gen`` package does.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from .compiled import compile_function
from .typespec import MISSING, Reject, TypeSpec

__all__ = [
    "InlineForm",
    "OptionalForm",
    "KeyHook",
    "UnstructureField",
    "generate_object_structure",
    "generate_unstructure",
    "inline_form",
    "items_hook",
    "object_body",
    "optional_form",
    "with_inline_form",
    "with_optional_form",
]

# The attribute of a structuring hook holding its `InlineForm`. Kept on the hook itself (not on
# its spec), so a spec whose hook is replaced (a constrained Annotated, a hook registered by
# hand) cannot keep a form that skips it.
_INLINE_FORM: Final = "typed_toolsets_inline_form"


@attrs.frozen
class InlineForm:
    """A structuring hook's common case, written out for generated code to inline.

    Attributes:
        layout: A Python expression over a str ``x`` (it may bind ``x_len``): when true,
            ``read(x)`` is the hook's value, or raises `ValueError`, after which the hook decides.
        read: The reader of texts of the layout.
        names: The names *layout* uses besides ``x`` and builtins.
        items: The hook over a whole list: what ``[hook(x) for x in values]`` returns or raises,
            in one frame.
        colons: Counts the colons of a list of texts the hook reads (a `TypeSpec.colons` of the
            list), when quicker than counting them: a list *items* has just read may have
            them counted already. None: counted as any list of strings.
    """

    layout: str
    read: Callable[[str], Any]
    names: Mapping[str, object]
    items: Callable[[list[Any]], list[Any]]
    colons: Callable[[list[Any]], int] | None = None


def with_inline_form(hook: Callable[[Any], Any], form: InlineForm) -> Callable[[Any], Any]:
    """Attach *form* to *hook* (a function of our own, generated)."""
    setattr(hook, _INLINE_FORM, form)
    return hook


def inline_form(hook: Callable[[Any], Any]) -> InlineForm | None:
    """The form attached to *hook* with `with_inline_form`, if any."""
    form: InlineForm | None = getattr(hook, _INLINE_FORM, None)
    return form


# The attribute of an object type's structuring hook holding what compiles its list function.
_ITEMS: Final = "typed_toolsets_items"


def items_hook(hook: Callable[[Any], Any]) -> Callable[[list[Any]], list[Any]] | None:
    """The list function of *hook*: its inline form's, or an object type's, if it has one.

    It returns or raises what ``[hook(x) for x in values]`` does, in one frame.
    """
    form = inline_form(hook)
    if form is not None:
        return form.items
    compile_items: Callable[[], Callable[[list[Any]], list[Any]]] | None = getattr(
        hook, _ITEMS, None
    )
    return None if compile_items is None else compile_items()


# The attribute of a union's structuring hook holding its `OptionalForm` (on the hook, as above).
_OPTIONAL_FORM: Final = "typed_toolsets_optional_form"


@attrs.frozen
class OptionalForm:
    """What the structuring hook of ``T | None`` does, for generated code to inline.

    The hook keeps ``None``; any other value of one of *types* is *variant*'s to structure, and
    of any other type refused. Inlined, that costs no frame of the union's own, and *variant*'s
    checks inline in turn.

    Attributes:
        types: The Python types of parsed JSON values that *variant*'s JSON types admit.
        variant: The spec of ``T``.
    """

    types: frozenset[type]
    variant: TypeSpec


def with_optional_form(hook: Callable[[Any], Any], form: OptionalForm) -> Callable[[Any], Any]:
    """Attach *form* to *hook* (a union's structuring function)."""
    setattr(hook, _OPTIONAL_FORM, form)
    return hook


def optional_form(hook: Callable[[Any], Any]) -> OptionalForm | None:
    """The form attached to *hook* with `with_optional_form`, if any."""
    form: OptionalForm | None = getattr(hook, _OPTIONAL_FORM, None)
    return form


@attrs.frozen
class KeyHook:
    """How generated structuring code handles one key of an object.

    Attributes:
        key: The JSON property name; also the keyword passed to the constructor.
        required: Whether the key must be present.
        hook: Structures the value (raising `Reject` when it does not match).
        passthrough: When set, the value must be exactly of one of these types and is kept as is
            (the hook is not called).
        default: For an optional key of a class: the value to pass when the key is absent, or
            MISSING to leave the keyword out (a factory default, or a plain dict result).
        factory: For an optional key of a class whose default a factory taking no arguments
            makes: called when the key is absent, its value passed as the class would make it.
        shortcut: A type whose values are kept as is without calling the hook (other values
            still go through it).
        list_of: When set, the value is a list whose items are exactly of this type, kept as is.
        lookup: When set, the value is a str found in this table, which gives the result.
        null_default: For an optional key: ``null`` is read as the key left out, so the default
            applies (the strict form, `typed_toolsets.types.strict`).
    """

    key: str
    required: bool
    hook: Callable[[Any], Any]
    passthrough: tuple[type, ...] = ()
    default: object = MISSING
    shortcut: type | None = None
    list_of: type | None = None
    lookup: Mapping[str, object] | None = None
    null_default: bool = False
    factory: Callable[[], object] | None = None

    @classmethod
    def for_spec(
        cls,
        key: str,
        required: bool,
        spec: TypeSpec,
        hook: Callable[[Any], Any] | None = None,
        default: object = MISSING,
        *,
        null_default: bool = False,
        factory: Callable[[], object] | None = None,
    ) -> KeyHook:
        """The key hook of a value of *spec*.

        A *hook* other than the spec's own function (one registered on the converter by hand) is
        always called: the spec's shortcuts would bypass it.
        """
        if hook is not None and hook is not spec.structure:
            return cls(
                key=key,
                required=required,
                hook=hook,
                default=default,
                null_default=null_default,
                factory=factory,
            )
        return cls(
            key=key,
            required=required,
            hook=spec.structure,
            passthrough=spec.passthrough,
            default=default,
            shortcut=spec.shortcut,
            list_of=spec.list_of,
            lookup=spec.lookup,
            null_default=null_default,
            factory=factory,
        )


def _positional_count(make: Callable[..., Any], names: list[str]) -> int:
    """How many of *names*, in order, *make* takes as its leading positional parameters.

    Keyword arguments cost a CPython call far more than positional ones (the names are matched
    one by one), and the constructor runs once per structured object.
    """
    try:
        parameters = list(inspect.signature(make).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - classes always have a signature
        return 0
    count = 0
    for parameter, name in zip(parameters, names, strict=False):
        if parameter.kind is not parameter.POSITIONAL_OR_KEYWORD or parameter.name != name:
            break
        count += 1
    return count


def _value_check(
    item: KeyHook, index: int, namespace: dict[str, Any], refuse: str
) -> tuple[list[str], str]:
    """The lines checking ``x`` for one key, and the expression of its structured value.

    The lines run *refuse* when ``x`` does not match; whether they also refuse the missing
    marker is said by the caller's own check (`_rejects_missing`).
    """
    if len(item.passthrough) == 1:
        namespace[f"t{index}"] = item.passthrough[0]
        return [f"if type(x) is not t{index}:", f"    {refuse}"], "x"
    if item.passthrough:
        namespace[f"t{index}"] = item.passthrough
        return [f"if type(x) not in t{index}:", f"    {refuse}"], "x"
    if item.list_of is not None:
        # One C-level pass over the items: the set of their types must be {list_of}.
        namespace[f"t{index}"] = {item.list_of}
        return [
            f"if type(x) is not list or (x and set(map(type, x)) != t{index}):",
            f"    {refuse}",
        ], "x"
    if item.lookup is not None:
        namespace[f"t{index}"] = item.lookup
        return [
            f"x = t{index}.get(x, M) if type(x) is str else M",
            "if x is M:",
            f"    {refuse}",
        ], "x"
    if item.shortcut is not None:
        namespace[f"t{index}"] = item.shortcut
        return [f"if type(x) is not t{index}:", f"    x = s{index}(x)"], "x"
    optional = optional_form(item.hook)
    if optional is not None:
        # The variant's own checks, behind the union's: None kept, other types refused. The
        # variant's hook replaces the union's under this index (the lines call only it).
        namespace[f"o{index}"] = optional.types
        inner = KeyHook.for_spec(item.key, True, optional.variant)  # noqa: FBT003
        namespace[f"s{index}"] = inner.hook
        check, value = _value_check(inner, index, namespace, refuse)
        lines = ["if x is not None:", f"    if type(x) not in o{index}:", f"        {refuse}"]
        lines.extend(f"    {line}" for line in check)
        if value != "x":
            lines.append(f"    x = {value}")
        return lines, "x"
    form = inline_form(item.hook)
    if form is not None:
        # The common spellings are read here, without a call of the hook; the hook decides the
        # rest (and whatever the reader refuses).
        namespace.update(form.names)
        namespace[f"r{index}"] = form.read
        return [
            f"if type(x) is str and ({form.layout}):",
            "    try:",
            f"        x = r{index}(x)",
            "    except ValueError:",
            f"        x = s{index}(x)",
            "else:",
            f"    x = s{index}(x)",
        ], "x"
    return [], f"s{index}(x)"


def _keeps_value(item: KeyHook) -> bool:
    """Whether the structured value of the key is always the JSON value itself."""
    return bool(item.passthrough) or item.list_of is not None


def _rejects_missing(item: KeyHook) -> bool:
    """Whether the key's check itself refuses the missing marker (it is of no JSON type)."""
    return bool(item.passthrough) or item.list_of is not None or item.lookup is not None


def object_body(
    keys: Sequence[KeyHook],
    make: Callable[..., Any] | None,
    namespace: dict[str, Any],
    indent: str,
    *,
    known_dict: bool = False,
    setters: Sequence[Callable[[Any, Any], object]] | None = None,
    refuse: str = "raise Reject",
) -> tuple[list[str], str]:
    """Source lines checking and structuring the JSON object ``v`` with exactly *keys*.

    The lines run *refuse* when ``v`` does not match. Returns them with the expression of the
    result: a call of *make* with the values, or, when *make* is None, the name of the dict of the
    values present (absent optional keys are left out, so a method's own defaults apply).

    Args:
        keys: The object's keys, in order.
        make: The constructor, or None for a plain dict of the values present.
        namespace: The values the lines read by name (hooks, tables and, for a dict, the keys
            themselves, ``K0``, ``K1``, ...); they are added to it.
        indent: Put before every line.
        known_dict: The caller has checked already that ``v`` is a dict.
        setters: With *make*, one per key: sets the key's value on an instance made with
            ``object.__new__``, which is then the result instead of a call of *make* (for a class
            whose ``__init__`` would set exactly these and do nothing more; see
            `typed_toolsets.types.structs`).
        refuse: The statement refusing ``v`` (what the hooks they call raise goes on up):
            ``raise Reject``, or what the caller does with a refusal, in its own frame.
    """
    namespace.update({"Reject": Reject, "M": MISSING})
    if make is not None:
        namespace["make"] = make
    lines = [] if known_dict else ["if type(v) is not dict:", f"    {refuse}"]
    optional = any(not k.required for k in keys)
    # A dict result whose values are all kept as they are is the checked object itself (unless
    # a null standing for a default must be left out of it).
    same = make is None and all(_keeps_value(k) and not k.null_default for k in keys)
    if optional:
        # Every required key is counted up front: the lines raise before the count is compared
        # when one is missing.
        lines.append(f"n = {sum(1 for k in keys if k.required)}")
    keywords: list[str] = []
    uses_kw = not same and any(
        not k.required and (make is None or (k.default is MISSING and k.factory is None))
        for k in keys
    )
    # A dict result with optional keys is filled as the keys are read: building it at the end
    # from the required values and then merging a dict of the optional ones costs a dict and a
    # call more.
    fill = make is None and uses_kw
    if fill:
        lines.append("r = {}")
    elif uses_kw:
        lines.append("kw = {}")
    for index, item in enumerate(keys):
        # For a dict (a method's arguments), the key is a name, not a literal: the source then
        # depends on the object's shape alone, and every tool of one shape shares one code (see
        # `compile_bound`). A class's source names its keys as keywords anyway.
        key = repr(item.key)
        if make is None:
            key = f"K{index}"
            namespace[key] = item.key
        namespace[f"s{index}"] = item.hook
        check, value = _value_check(item, index, namespace, refuse)
        lines.append(f"x = v.get({key}, M)")
        if item.null_default and not item.required:
            # The strict form: a null present stands for the key left out (still counted).
            lines.extend(["if x is None:", "    x = M", "    n += 1"])
        if item.required:
            if not _rejects_missing(item):
                lines.extend(["if x is M:", f"    {refuse}"])
            lines.extend(check)
            if fill:
                lines.append(f"r[{key}] = {value}")
            elif not same:
                lines.append(f"a{index} = {value}")
            keywords.append(f"a{index}")
        elif make is not None and (item.default is not MISSING or item.factory is not None):
            # Passing the class's own default when the key is absent is the same as omitting it;
            # so is passing what its factory makes (a keyword left out costs the call a dict:
            # 720 ns against 310 for a frozen class of four fields set slot by slot, measured).
            if item.factory is None:
                namespace[f"d{index}"] = item.default
                lines.extend(["if x is M:", f"    a{index} = d{index}", "else:"])
            else:
                namespace[f"d{index}"] = item.factory
                lines.extend(["if x is M:", f"    a{index} = d{index}()", "else:"])
            lines.extend(f"    {line}" for line in check)
            lines.extend([f"    a{index} = {value}", "    n += 1"])
            keywords.append(f"a{index}")
        else:
            lines.append("if x is not M:")
            lines.extend(f"    {line}" for line in check)
            if fill:
                lines.append(f"    r[{key}] = {value}")
            elif not same:
                lines.append(f"    kw[{key}] = {value}")
            lines.append("    n += 1")
            keywords.append("")
    if optional:
        lines.extend(["if n != len(v):", f"    {refuse}"])
    else:
        lines.extend([f"if len(v) != {len(keys)}:", f"    {refuse}"])
    if same:
        return [f"{indent}{line}" for line in lines], "v"
    if fill:
        return [f"{indent}{line}" for line in lines], "r"
    named = [
        (index, item.key, local)
        for index, (item, local) in enumerate(zip(keys, keywords, strict=True))
        if local
    ]
    if make is None:
        lines.append("r = {" + ", ".join(f"K{index}: {local}" for index, _, local in named) + "}")
        result = "r"
    elif setters is not None and not uses_kw and len(named) == len(setters):
        namespace["new"] = object.__new__
        lines.append("o = new(make)")
        for index, _, local in named:
            namespace[f"f{index}"] = setters[index]
            lines.append(f"f{index}(o, {local})")
        result = "o"
    else:
        positional = _positional_count(make, [key for _, key, _ in named])
        call = [local for _, _, local in named[:positional]]
        call += [f"{key}={local}" for _, key, local in named[positional:]]
        if uses_kw:
            call.append("**kw")
        result = f"make({', '.join(call)})"
    return [f"{indent}{line}" for line in lines], result


def generate_object_structure(
    name: str,
    keys: Sequence[KeyHook],
    make: Callable[..., Any] | None,
    setters: Sequence[Callable[[Any, Any], object]] | None = None,
) -> Callable[[Any], Any]:
    """Generate a function structuring a JSON object with exactly *keys* (unknown keys rejected).

    It returns ``make(key=value, ...)`` (or the instance *setters* fill, see `object_body`), or,
    when *make* is None, the dict of the values present (absent optional keys are left out, so a
    method's own defaults apply).
    """
    namespace: dict[str, Any] = {}
    body, result = object_body(keys, make, namespace, "    ", setters=setters)
    source = "\n".join(["def generated(v):", *body, f"    return {result}"]) + "\n"
    structure = compile_function(source, f"structure {name}", namespace)

    def compile_items() -> Callable[[list[Any]], list[Any]]:
        # The same lines in a loop: a list of such objects costs no frame per object. Compiled
        # when a list of them is first built, and kept.
        items_namespace: dict[str, Any] = {}
        lines, value = object_body(keys, make, items_namespace, "        ", setters=setters)
        items_source = "\n".join(
            [
                "def generated(values):",
                "    out = []",
                "    for v in values:",
                *lines,
                f"        out.append({value})",
                "    return out",
            ]
        )
        compiled = compile_function(items_source + "\n", f"structure {name} items", items_namespace)
        setattr(structure, _ITEMS, lambda: compiled)
        return compiled

    setattr(structure, _ITEMS, compile_items)
    return structure


@attrs.frozen
class UnstructureField:
    """One field as the unstructuring code reads it.

    Attributes:
        json_name: The JSON property name written.
        attr_name: The attribute (or, for a dict, the key) read.
        required: For a dict: whether the key must be present.
        unstructure: Turns the field's value into a JSON value.
    """

    json_name: str
    attr_name: str
    required: bool
    unstructure: Callable[[Any], Any]


def generate_unstructure(
    name: str, cls: type, fields: Sequence[UnstructureField], *, from_dict: bool
) -> Callable[[Any], Any]:
    """Generate a function turning an instance of *cls* (or, *from_dict*, a dict) into JSON."""
    namespace: dict[str, Any] = {"cls": cls, "M": MISSING}
    lines = ["def generated(v):"]
    if from_dict:
        lines.extend(
            ["    if not isinstance(v, dict):", "        raise ValueError(f'{v!r} is not a dict')"]
        )
    else:
        lines.extend(
            [
                "    if not isinstance(v, cls):",
                "        raise ValueError(f'{v!r} is not a ' + cls.__qualname__)",
            ]
        )
    lines.append("    r = {}")
    for index, field in enumerate(fields):
        namespace[f"u{index}"] = field.unstructure
        key = repr(field.json_name)
        if from_dict:
            lines.append(f"    x = v.get({field.attr_name!r}, M)")
            lines.append("    if x is not M:")
            lines.append(f"        r[{key}] = u{index}(x)")
            if field.required:
                lines.append("    else:")
                lines.append(f"        raise ValueError('missing required key ' + {key})")
        else:
            lines.append(f"    r[{key}] = u{index}(v.{field.attr_name})")
    lines.append("    return r")
    source = "\n".join(lines) + "\n"
    return compile_function(source, f"unstructure {name}", namespace)
