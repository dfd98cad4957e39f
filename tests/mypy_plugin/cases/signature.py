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

    def positional_only(self, a: int, /, b: int) -> None: ...  # E: Cannot export "Params.positional_only" as a tool: parameter "a" is positional-only; tools are called with keywords, remove the "/"  [toolset-signature]
    def star_args(self, *args: int) -> None: ...  # E: Cannot export "Params.star_args" as a tool: "*args" is not supported; declare keyword parameters instead  [toolset-signature]
    def star_kwargs(self, **kwargs: int) -> None: ...  # E: Cannot export "Params.star_kwargs" as a tool: "**kwargs" is not supported; declare keyword parameters instead  [toolset-signature]
    def unannotated(self, *, a, b: int) -> None: ...  # E: Cannot export "Params.unannotated" as a tool: parameter "a" has no type annotation  [toolset-signature]
    def untyped(self, a, b=3):  # E: Cannot export "Params.untyped" as a tool: parameter "a" has no type annotation  [toolset-signature]  # E: Cannot export "Params.untyped" as a tool: parameter "b" has no type annotation  [toolset-signature]
        pass
    def none_default(self, *, limit: int = None, ok: int | None = None) -> None: ...  # E: Cannot export "Params.none_default" as a tool: parameter "limit" defaults to None but its type "int" does not admit null; add "| None" (a None default does not make it nullable)  [toolset-signature]

    def multi_line(
        self,
        *,
        fine: str,
        bad: object,
        ugly,  # E: Cannot export "Params.multi_line" as a tool: parameter "ugly" has no type annotation  [toolset-signature]
    ) -> None: ...

    def positional_ok(self, a: int, b: str = "x") -> None: ...

    def mangled(self, __secret: int) -> None: ...


class Overrides(RemoteBase):
    # The inherited declaration now resolves to this class's method: its problems are new.
    def assign(self, task_id: str, /) -> str:  # E: Cannot export "Overrides.assign" as a tool: parameter "task_id" is positional-only; tools are called with keywords, remove the "/"  [toolset-signature]
        return task_id
