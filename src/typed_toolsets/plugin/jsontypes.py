"""Which types have a JSON Schema: the runtime's type table, walked over mypy's types.

The table is `typed_toolsets.types.catalog`'s. `SchemaCheck.problem` says why a parameter type
has no schema, in the runtime's words where the runtime has them; the reasons become the
``reason`` of a ``param-type`` problem.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mypy.nodes import TypeInfo
from mypy.options import Options
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    Overloaded,
    TupleType,
    Type,
    TypeAliasType,
    TypedDictType,
    TypeOfAny,
    TypeType,
    TypeVarLikeType,
    UninhabitedType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from typed_toolsets.rules import reasons, sets
from typed_toolsets.rules.flags import MAX_FLAG_VALUES, flag_values
from typed_toolsets.rules.typenames import (
    MAPPING_ORIGINS,
    SEQUENCE_ORIGINS,
    SET_ORIGINS,
)

from .metadata import none_default_fields
from .shapes import known_flag_values
from .typeinfo import (
    BYTES,
    SCALARS,
    label,
    member_value_type,
    namedtuple_fields,
    struct_class,
    struct_fields,
)

__all__ = ["SchemaCheck"]


def _scalars(t: Type, place: sets.Place = ()) -> Iterator[tuple[sets.Place, sets.Scalar]]:
    """The booleans and numbers a set item of type *t* holds (the runtime's `_scalars`)."""
    proper = get_proper_type(t)
    if isinstance(proper, UnionType):
        for item in proper.items:
            yield from _scalars(item, place)
    elif isinstance(proper, LiteralType):
        if isinstance(proper.value, (bool, int, float)) and proper.value in (0, 1):
            yield place, proper.value
    elif isinstance(proper, TupleType):
        for index, item in enumerate(proper.items):
            yield from _scalars(item, (*place, index))
    elif isinstance(proper, Instance):
        info = proper.type
        if info.fullname == "builtins.tuple" and proper.args:
            yield from _scalars(proper.args[0], (*place, "*"))
        elif info.is_newtype and info.bases:
            yield from _scalars(info.bases[0], place)
        elif info.fullname == "builtins.bool":
            yield place, True
            yield place, False
        elif info.fullname in ("builtins.int", "builtins.float", "numbers.Real") or (
            info.is_enum and (info.has_base("builtins.int") or info.has_base("builtins.float"))
        ):
            yield place, "number"


_JSON_VALUE_TYPES: Final = frozenset(
    {"builtins.str", "builtins.int", "builtins.float", "builtins.bool", "enum.auto"}
)


class SchemaCheck:
    """Check 6: does a parameter type have a JSON Schema?

    Args:
        options: mypy's options (to name types).
        registered: Fully qualified names of the types registered at run time (from the config).
    """

    def __init__(self, options: Options, registered: frozenset[str]) -> None:
        self.options = options
        self.registered = registered
        #: The classes and aliases the verdicts so far depend on, with their modules.
        self.reached: dict[str, str] = {}
        #: After `problem`: the first type it met that mypy does not see (an unfollowed
        #: import), if any; its schema cannot be checked statically.
        self.unseen: str | None = None
        # The structs `problem` found whole in this call (recursion into the ones it is still
        # checking is taken as fine): a class reached again by another path is not checked
        # again, where checking it once per path was exponential in a cycle of structs.
        self._whole: set[str] = set()

    def _reach(self, fullname: str, module: str) -> None:
        self.reached[fullname] = module

    def show(self, t: Type) -> str:
        """How *t* is named in problems."""
        return label(t, self.options)

    def problem(self, t: Type) -> str | None:
        """Why *t* has no JSON Schema, or None when it has one (or cannot be known).

        When it cannot be known because part of *t* comes from a module mypy does not analyse
        (``ignore_missing_imports``), `unseen` names that part afterwards.
        """
        self.unseen = None
        self._whole = set()
        return self._problem(t, set())

    def _written(self, any_type: AnyType) -> bool:
        """Whether *any_type* is an ``Any`` the user wrote (which the run time refuses).

        One written in a type alias (``JsonDict: TypeAlias = dict[str, Any]``) is a "special
        form" once the alias is expanded: mypy marks it so, for ``disallow_any_explicit`` to
        report it at the alias only. Under ``disallow_any_unimported``, mypy marks an alias's
        type from an unfollowed import (a registered type, perhaps) so too, and forgets its
        name: the two cannot be told apart then, and neither is reported.
        """
        if any_type.type_of_any == TypeOfAny.explicit:
            return True
        return (
            any_type.type_of_any == TypeOfAny.special_form
            and not self.options.disallow_any_unimported
        )

    def _any_problem(self, any_type: AnyType) -> str | None:
        if self._written(any_type):
            return reasons.ANY
        if any_type.type_of_any == TypeOfAny.from_omitted_generics:
            return reasons.OMITTED_PARAMETERS
        # Unannotated parameters are a signature problem; errors and unfollowed imports are
        # reported by mypy itself, and other Any values cannot be judged.
        return None

    def _problem(self, t: Type, seen: set[str]) -> str | None:
        if isinstance(t, TypeAliasType) and t.alias is not None:
            self._reach(t.alias.fullname, t.alias.module)
            if t.is_recursive and not _names_its_class(t):
                return reasons.RECURSIVE_ALIAS
            if getattr(t.alias, "python_3_12_type_alias", False) and t.alias.alias_tvars:
                # One without parameters stands for its type, as at run time (`types.hints`).
                return reasons.GENERIC_TYPE_ALIAS
        proper = get_proper_type(t)
        if isinstance(proper, NoneType):
            return None
        if isinstance(proper, AnyType):
            unseen = proper.missing_import_name
            if (
                proper.type_of_any == TypeOfAny.from_unimported_type
                and self.unseen is None
                and unseen not in self.registered
            ):
                self.unseen = unseen or "Any"
            return self._any_problem(proper)
        if isinstance(proper, UninhabitedType):
            return reasons.NEVER
        if isinstance(proper, LiteralType):
            return self._literal_problem(proper)
        if isinstance(proper, UnionType):
            return self._first_problem(proper.items, seen)
        if isinstance(proper, TupleType):
            fallback = proper.partial_fallback.type
            if fallback.fullname != "builtins.tuple":
                return self._namedtuple_problem(fallback, proper, seen)
            if any(isinstance(get_proper_type(item), UnpackType) for item in proper.items):
                # mypy writes a fixed tuple unpacked in place; one of any length is left.
                return reasons.UNPACKED_TUPLE
            return self._first_problem(proper.items, seen)
        if isinstance(proper, TypedDictType):
            info = proper.fallback.type
            self._reach(info.fullname, info.module_name)
            if info.fullname in seen or info.fullname in self._whole:
                return None  # recursive TypedDicts are supported
            if info.type_vars:
                return _generic_struct(info)
            seen.add(info.fullname)
            try:
                for key, item in proper.items.items():
                    reason = self._problem(item, seen)
                    if reason is not None:
                        anonymous = info.fullname.endswith("._TypedDict")
                        field = f"{info.name}.{key}"
                        return reason if anonymous else reasons.field_reason(field, reason)
                self._whole.add(info.fullname)
                return None
            finally:
                seen.discard(info.fullname)
        if isinstance(proper, (CallableType, Overloaded)):
            return reasons.CALLABLES
        if isinstance(proper, TypeType):
            return reasons.CLASSES
        if isinstance(proper, TypeVarLikeType):
            return reasons.type_variable(self.show(proper))
        if isinstance(proper, Instance):
            return self._instance_problem(proper, seen)
        return None  # partial, erased or placeholder types: mypy reports those itself

    def _first_problem(self, items: list[Type], seen: set[str]) -> str | None:
        for item in items:
            reason = self._problem(item, seen)
            if reason is not None:
                return reason
        return None

    def _literal_problem(self, literal: LiteralType) -> str | None:
        self._reach(literal.fallback.type.fullname, literal.fallback.type.module_name)
        if literal.fallback.type.is_enum:
            return self._enum_problem(literal.fallback.type)
        is_bytes = literal.fallback.type.fullname in BYTES
        if not is_bytes and isinstance(literal.value, (str, int, bool)):
            return None
        return reasons.literal_value(self.show(literal), is_bytes=is_bytes)

    def _instance_problem(self, instance: Instance, seen: set[str]) -> str | None:
        info = instance.type
        fullname = info.fullname
        self._reach(fullname, info.module_name)
        if fullname in self.registered or fullname in SCALARS:
            return None
        if info.is_newtype and info.bases:
            return self._problem(info.bases[0], seen)
        if info.is_enum:
            return self._enum_problem(info)
        if info.tuple_type is not None and fullname != "builtins.tuple":
            return self._namedtuple_problem(info, info.tuple_type, seen)
        if info.typeddict_type is not None:
            return self._problem(info.typeddict_type, seen)
        args = instance.args
        containers = SEQUENCE_ORIGINS | SET_ORIGINS | MAPPING_ORIGINS
        if (fullname in containers or fullname == "builtins.tuple") and _bare(args):
            return _missing_parameters(info)
        if fullname in SEQUENCE_ORIGINS or fullname == "builtins.tuple":
            return self._problem(args[0], seen) if args else _missing_parameters(info)
        if fullname in SET_ORIGINS:
            if not args:
                return _missing_parameters(info)
            reason = self._problem(args[0], seen)
            if reason is None and not self._hashable(args[0]):
                return sets.unhashable(self.show(args[0]))
            if reason is None and sets.booleans_meet_numbers(_scalars(args[0])):
                return sets.mixed(self.show(args[0]))
            return reason
        if fullname in MAPPING_ORIGINS:
            if len(args) != 2:
                return _missing_parameters(info)
            if not _key_is_str(args[0]):
                key = get_proper_type(args[0])
                return reasons.str_keys(self.show(key))
            return self._problem(args[1], seen)
        struct = struct_class(info)
        if struct is not None:
            return self._struct_problem(instance, *struct, seen)
        if fullname == "builtins.object":
            return reasons.OBJECT
        if fullname in BYTES:
            return reasons.BYTES
        return reasons.not_a_struct(info.name)

    def _namedtuple_problem(
        self, info: TypeInfo, tuple_type: TupleType, seen: set[str]
    ) -> str | None:
        self._reach(info.fullname, info.module_name)
        if info.fullname in seen or info.fullname in self._whole:
            return None
        if info.type_vars:
            return _generic_struct(info)
        seen.add(info.fullname)
        try:
            names = namedtuple_fields(info)
            for index, item in enumerate(tuple_type.items):
                field = names[index] if index < len(names) else f"#{index}"
                proper = get_proper_type(item)
                if isinstance(proper, AnyType) and not self._written(proper):
                    return reasons.unannotated_field(f"{info.name}.{field}")
                reason = self._problem(item, seen)
                if reason is not None:
                    return reasons.field_reason(f"{info.name}.{field}", reason)
                reason = self._none_default_problem(info, field, item)
                if reason is not None:
                    return reason
            self._whole.add(info.fullname)
            return None
        finally:
            seen.discard(info.fullname)

    def _none_default_problem(self, info: TypeInfo, field: str, t: Type) -> str | None:
        """A field of struct *info* whose default is ``None`` and whose type *t* refuses null.

        The class in the MRO that defines the field says what its default is.
        """
        owner = next((klass for klass in info.mro if field in klass.names), None)
        if owner is None or field not in none_default_fields(owner) or self.admits_null(t):
            return None
        return reasons.field_none_default(f"{info.name}.{field}", self.show(t))

    def _struct_problem(
        self, instance: Instance, decorated: TypeInfo, kind: str, seen: set[str]
    ) -> str | None:
        """The fields are *decorated*'s (the class itself or a base: `struct_class`), of *kind*."""
        info = instance.type
        self._reach(decorated.fullname, decorated.module_name)
        if info.fullname in seen or info.fullname in self._whole:
            return None  # recursive classes are supported
        if info.type_vars:
            return _generic_struct(info)
        seen.add(info.fullname)
        try:
            for field in struct_fields(info, decorated, kind):
                name = field.name
                if field.init_var:
                    return reasons.init_var_field(info.name, name)
                if field.type is None:
                    return reasons.unannotated_field(f"{info.name}.{name}")
                reason = self._problem(field.type, seen)
                if reason is not None:
                    return reasons.field_reason(f"{info.name}.{name}", reason)
                reason = self._none_default_problem(info, name, field.type)
                if reason is not None:
                    return reason
            self._whole.add(info.fullname)
            return None
        finally:
            seen.discard(info.fullname)

    def _enum_problem(self, info: TypeInfo) -> str | None:
        members = info.enum_members
        if not members:
            return reasons.no_members(info.name)
        for member in members:
            value = member_value_type(info, member)
            if value is None:
                continue
            ok = isinstance(value, (NoneType, LiteralType, AnyType)) or (
                isinstance(value, Instance) and value.type.fullname in _JSON_VALUE_TYPES
            )
            if not ok:
                return reasons.enum_value(info.name, member, None)
        known = known_flag_values(info)
        if known is not None and flag_values(known) is None:
            return reasons.flag_values(info.name, MAX_FLAG_VALUES)
        return None

    def _hashable(self, t: Type) -> bool:
        """Mirrors `TypeSpec.hashable`: scalars, enums, literals and tuples of those."""
        proper = get_proper_type(t)
        if isinstance(proper, (NoneType, LiteralType)):
            return True
        if isinstance(proper, UnionType):
            return all(self._hashable(item) for item in proper.items)
        if isinstance(proper, TupleType):
            return proper.partial_fallback.type.fullname == "builtins.tuple" and all(
                self._hashable(item) for item in proper.items
            )
        if isinstance(proper, Instance):
            info = proper.type
            if info.fullname in SCALARS or info.is_enum:
                return True
            if info.is_newtype and info.bases:
                return self._hashable(info.bases[0])
            if info.fullname == "builtins.tuple" and proper.args:
                return self._hashable(proper.args[0])
        return False

    def admits_null(self, t: Type) -> bool:
        """Whether *t*'s schema admits ``null`` (a None default needs it)."""
        proper = get_proper_type(t)
        if isinstance(proper, (NoneType, AnyType)):
            return True
        if isinstance(proper, UnionType):
            return any(self.admits_null(item) for item in proper.items)
        if isinstance(proper, Instance):
            info = proper.type
            if info.fullname in self.registered:
                return True  # its schema is not known here
            if info.is_newtype and info.bases:
                return self.admits_null(info.bases[0])
            if info.is_enum:  # a member whose value is None: its schema's enum holds null
                return any(
                    isinstance(member_value_type(info, member), NoneType)
                    for member in info.enum_members
                )
        return False


def _names_its_class(alias: TypeAliasType) -> bool:
    """Whether *alias* is how mypy refers to a TypedDict or NamedTuple class inside itself.

    A class that refers to itself (``children: list[Node]``) is a recursive alias to mypy; at
    run time it is a recursive struct, which has a schema.
    """
    proper = get_proper_type(alias)
    if isinstance(proper, TypedDictType):
        info = proper.fallback.type
    elif isinstance(proper, TupleType):
        info = proper.partial_fallback.type
    else:
        return False
    return alias.alias is not None and alias.alias.fullname == info.fullname


def _key_is_str(key: Type) -> bool:
    """Whether a mapping's key type is ``str`` or a NewType of it (at any depth)."""
    proper = get_proper_type(key)
    while isinstance(proper, Instance) and proper.type.is_newtype and proper.type.bases:
        proper = proper.type.bases[0]
    return isinstance(proper, Instance) and proper.type.fullname == "builtins.str"


def _bare(args: tuple[Type, ...] | list[Type]) -> bool:
    """Whether a generic was written without its parameters (``list``, ``dict``).

    mypy fills them with ``Any``: "omitted generics", or "from error" when it reported the
    missing parameters itself (``disallow_any_generics``, part of ``--strict``).
    """
    omitted = (TypeOfAny.from_omitted_generics, TypeOfAny.from_error)
    return not args or all(
        isinstance(p, AnyType) and p.type_of_any in omitted for p in map(get_proper_type, args)
    )


def _generic_struct(info: TypeInfo) -> str:
    # The run time has no schema for a parameterised class (`Page[int]`), whatever its kind.
    return reasons.generic_struct(info.name)


def _missing_parameters(info: TypeInfo) -> str:
    return reasons.missing_parameters(info.fullname, info.name)
