# mypy: disable-error-code="no-untyped-def, assignment, override"
from collections.abc import Callable
from typing import Any, TypeVar

from typed_toolsets import Toolset, tool

from remote_base import RemoteBase, RemoteLegacyMixin
from remote_decorators import logged
from remote_overloads import RemoteOverloaded

F = TypeVar("F", bound=Callable[..., Any])


def register(func: F) -> F:
    return func


class Params(Toolset):
    exports = (
        tool("positional_only"),
        tool("star_args"),
        tool("star_kwargs"),
        tool("unannotated"),
        tool("untyped"),
        tool("none_default"),
        tool("multi_line"),
        tool("positional_ok"),
        tool("mangled"),
    )

    def positional_only(self, a: int, /, b: int) -> None: ...  # E: Params.positional_only: parameter 'a' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]
    def star_args(self, *args: int) -> None: ...  # E: Params.star_args: '*args' is not supported; declare keyword parameters instead  [toolset-signature]
    def star_kwargs(self, **kwargs: int) -> None: ...  # E: Params.star_kwargs: '**kwargs' is not supported; declare keyword parameters instead  [toolset-signature]
    def unannotated(self, *, a, b: int) -> None: ...  # E: Params.unannotated: parameter 'a' has no type annotation; annotate it so it gets a JSON Schema  [toolset-signature]
    def untyped(self, a, b=3):  # E: Params.untyped: parameter 'a' has no type annotation; annotate it so it gets a JSON Schema  [toolset-signature]  # E: Params.untyped: parameter 'b' has no type annotation; annotate it so it gets a JSON Schema  [toolset-signature]
        pass
    def none_default(self, *, limit: int = None, ok: int | None = None) -> None: ...  # E: Params.none_default: parameter 'limit' defaults to None but its type int does not admit null; add `| None` to its annotation (a None default does not make a parameter nullable)  [toolset-signature]

    def multi_line(
        self,
        *,
        fine: str,
        bad: object,  # E: Params.multi_line: parameter 'bad' has type object, which has no JSON Schema (object has no JSON Schema; use a concrete type)  [toolset-param-type]
        ugly,  # E: Params.multi_line: parameter 'ugly' has no type annotation; annotate it so it gets a JSON Schema  [toolset-signature]
    ) -> None: ...

    def positional_ok(self, a: int, b: str = "x") -> None: ...

    def mangled(self, __secret: int) -> None: ...


class Overrides(RemoteBase):  # N: Overrides inherits the declaration of 'assign' from RemoteBase (line 9 of remote_base)
    # The inherited declaration now resolves to this class's method: its problems are new.
    def assign(self, task_id: str, /) -> str:  # E: Overrides.assign: parameter 'task_id' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]
        return task_id


class Wrapped(Toolset):
    # A decorator that keeps the signature (`F -> F`, `P -> P`): the source names the parameters.
    @tool
    @register
    def get(self, key: str, /) -> str:  # E: Wrapped.get: parameter 'key' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]
        return key

    @tool(description="Put.")
    @logged
    def put(self, key: str, /, *, value: str) -> str:  # E: Wrapped.put: parameter 'key' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]
        return value

    # `__key` is no positional-only parameter to Python: it is mangled to `_Wrapped__key`.
    @tool
    def old_style(self, __key: str) -> str:
        return __key

    @tool
    def old_style_bytes(self, __data: bytes, *, __n: int = False) -> int:  # E: Wrapped.old_style_bytes: parameter '_Wrapped__data' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]  # E: Wrapped.old_style_bytes: parameter '_Wrapped__n' has the default False, which is not a valid int (False is not an int)  [toolset-signature]
        return __n


class CombinesLegacy(RemoteLegacyMixin, Toolset):
    # Another module's mixin: its positional-only parameter is named as the run time names it,
    # and its `__key` is no positional-only parameter.
    exports = (
        tool("legacy"),  # E: CombinesLegacy.legacy: parameter 'task_id' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]
        tool("old_style"),
    )


class FromOverloads(RemoteOverloaded):
    # Another module's overloaded methods: the implementation's annotations and parameter names
    # are read as for any method (nothing was reported, and 'key' was '#1').
    exports = (
        tool("find"),  # E: FromOverloads.find: parameter 'key': an annotation names 'UUID', which Python cannot find when it resolves the annotation; define or import it at the module's top level (an import under `if TYPE_CHECKING:` or a name inside a function is not enough)  [toolset-param-type]
        tool("pick"),  # E: FromOverloads.pick: parameter 'key' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]
    )
