# mypy: disable-error-code="no-untyped-def, assignment, override"
from typed_toolsets import Toolset, tool

from remote_base import RemoteBase


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
        bad: object,
        ugly,  # E: Params.multi_line: parameter 'ugly' has no type annotation; annotate it so it gets a JSON Schema  [toolset-signature]
    ) -> None: ...

    def positional_ok(self, a: int, b: str = "x") -> None: ...

    def mangled(self, __secret: int) -> None: ...


class Overrides(RemoteBase):  # N: Overrides inherits the declaration of 'assign' from RemoteBase (line 9 of remote_base)
    # The inherited declaration now resolves to this class's method: its problems are new.
    def assign(self, task_id: str, /) -> str:  # E: Overrides.assign: parameter 'task_id' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]
        return task_id
