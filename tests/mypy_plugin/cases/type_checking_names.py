# Names imported only under `if TYPE_CHECKING:` do not exist when Python resolves the
# annotations (PEP 563 strings, resolved when the tools are built): to_tools() would fail.
from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from typed_toolsets import Toolset, tool

from remote_exports import RemoteTypingMixin

if TYPE_CHECKING:
    import remote_models
    from remote_models import Item, Priority
else:
    from remote_models import Item


class Tasks(Toolset):
    @tool
    def prioritise(self, *, note: str, priority: Priority, other: Priority) -> str:  # E: Tasks.prioritise: parameter 'priority': an annotation names 'Priority', which Python cannot find when it resolves the annotation; define or import it at the module's top level (an import under `if TYPE_CHECKING:` or a name inside a function is not enough)  [toolset-param-type]  # E: Tasks.prioritise: parameter 'other': an annotation names 'Priority', which Python cannot find when it resolves the annotation; define or import it at the module's top level (an import under `if TYPE_CHECKING:` or a name inside a function is not enough)  [toolset-param-type]
        return note

    @tool
    def items(self, *, items: list[remote_models.Item]) -> int:  # E: Tasks.items: parameter 'items': an annotation names 'remote_models', which Python cannot find when it resolves the annotation; define or import it at the module's top level (an import under `if TYPE_CHECKING:` or a name inside a function is not enough)  [toolset-param-type]
        return len(items)

    @tool
    def imported_at_run_time(self, *, item: Item) -> str:
        return item.name

    # Reported beside the unresolved names, by check too (it read no parameter of a class whose
    # tools failed to build only then).
    @tool
    def either(self, *, when: datetime.date | str) -> str:  # E: Tasks.either: parameter 'when' has the union date | str, and a JSON value can match both date and str (the first one in declared order wins)  [toolset-ambiguous-union]
        return str(when)



class Broken(Toolset):
    # Class creation reports only the other problem (a name may be defined later in the
    # module); check, read once the module has run, and mypy tell both, in the parameters' order.
    @tool
    def other_problems_first(self, *, priority: Priority, data: bytes) -> int:  # E: Broken.other_problems_first: parameter 'priority': an annotation names 'Priority', which Python cannot find when it resolves the annotation; define or import it at the module's top level (an import under `if TYPE_CHECKING:` or a name inside a function is not enough)  [toolset-param-type]  # E: Broken.other_problems_first: parameter 'data' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]
        return len(data)


class TypingOnlyMethods(RemoteTypingMixin, Toolset):
    # Methods defined only under `if TYPE_CHECKING:` (here or in another module's mixin) do not
    # exist at run time, so they cannot be exported.
    if TYPE_CHECKING:

        def own(self, *, query: str) -> str: ...

    exports = (
        tool("own"),  # E: TypingOnlyMethods.own: TypingOnlyMethods has no method 'own' to export  [toolset-unknown-method]
        tool("typed_only"),  # E: TypingOnlyMethods.typed_only: TypingOnlyMethods has no method 'typed_only' to export  [toolset-unknown-method]
    )
