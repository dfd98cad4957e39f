# What the plugin reads besides literal tuples in the class body: keywords, Final constants,
# `+`, `*` and unpacking, `Base.exports`, aliases of tool() (here and in other modules).
from typing import ClassVar, Final

from typed_toolsets import Toolset, ToolSpec, tool

from remote_exports import NamedMixin, expose

publish = tool
NAME: Final = "lookup"
OWN: Final = (tool("search"), tool(method_name="lookup"))
TYPO: Final = (tool("serch"),)


class Keywords(Toolset):
    exports = (
        tool(method_name="search", tool_name="kw_search"),
        tool(method_name="serch"),  # E: Keywords.serch: Keywords has no method 'serch' to export; did you mean 'search'?  [toolset-unknown-method]
        tool(method_name=NAME, tool_name="bad name"),  # E: Keywords.lookup: the tool name 'bad name' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    )

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, key: int) -> int:
        return key


class FromConstant(Toolset):
    exports = TYPO  # E: FromConstant.serch: FromConstant has no method 'serch' to export; did you mean 'search'?  [toolset-unknown-method]

    def search(self, *, query: str) -> str:
        return query


class Unpacked(Toolset):
    exports = (
        *OWN,
        tool("search", tool_name="other_search"),  # E: Unpacked.search: the method 'search' is declared twice in this class  [toolset-duplicate-name]
    )

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, key: int) -> int:
        return key


class Repeated(Toolset):
    exports = (tool("search"),) + (tool("ping"),) * 2  # E: Repeated.ping: the method 'ping' is declared twice in this class  [toolset-duplicate-name]

    def search(self, *, query: str) -> str:
        return query

    def ping(self) -> str:
        return "pong"


class Built(Toolset):
    exports = OWN + (tool("ping"),)

    def search(self, *, query: str) -> str:
        return query

    def lookup(self, *, key: int) -> int:
        return key

    def ping(self, *, count: int) -> str:
        return "pong" * count


class Again(Built):
    # Built.exports repeats Built's declarations here: declaring one of them again is a clash.
    exports = Built.exports + (tool("lookup", tool_name="again_lookup"),)  # E: Again.lookup: the method 'lookup' is declared twice in this class  [toolset-duplicate-name]


class Renamed(Built):  # N: Renamed inherits the declaration of 'search' from Built (line 60 of read_exports)  # N: Renamed inherits the declaration of 'lookup' from Built (line 60 of read_exports)  # N: Renamed inherits the declaration of 'ping' from Built (line 60 of read_exports)
    # The copy keeps meaning Built's declarations: the names this class makes of them are wrong
    # where it sets `toolset_name`.
    toolset_name = "bad name"  # E: Renamed.search: the tool name 'bad name_search' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]  # E: Renamed.lookup: the tool name 'bad name_lookup' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]  # E: Renamed.ping: the tool name 'bad name_ping' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    exports = Built.exports


class Extended(Keywords):
    exports = Keywords.exports + (tool("extra"),)

    def lookup(self, *, key: int) -> int:
        return key + 1

    def extra(self) -> None: ...


class Aliased(Toolset):
    exports = (
        publish("search"),
        expose("serch"),  # E: Aliased.serch: Aliased has no method 'serch' to export; did you mean 'search'?  [toolset-unknown-method]
    )

    def search(self, *, query: str) -> str:
        return query

    @publish
    def run(self, *, data: bytes) -> None: ...  # E: Aliased.run: parameter 'data' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]

    @expose(tool_name="Aliased run")  # E: Aliased.walk: the tool name 'Aliased run' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def walk(self) -> None: ...


class Shop(NamedMixin, Toolset):
    exports = (tool("go", tool_name="named_stop"),)

    @tool  # E: Shop.stop: the tool name 'named_stop' is already exported by the method 'go'  [toolset-duplicate-name]
    def stop(self) -> None: ...

    def go(self) -> None: ...


class Named(Toolset):
    toolset_name = "named"

    @tool
    def find(self) -> None: ...


class AnnotatedOnly(Named):
    # Annotations without a value set nothing: the class keeps Named's exports and toolset_name
    # (checked with them: the tool name below is Named's 'find' once prefixed), as at run time.
    exports: ClassVar[tuple[ToolSpec, ...]]
    toolset_name: ClassVar[str]

    @tool(tool_name="named_find")  # E: AnnotatedOnly.other: the tool name 'named_find' is already exported by the method 'find'  [toolset-duplicate-name]
    def other(self) -> None: ...


class Folded(Toolset):
    # Method names written as constant expressions are reported on their own lines, by both.
    exports = (
        tool(NAME + "_fnd"),  # E: Folded.lookup_fnd: Folded has no method 'lookup_fnd' to export; did you mean 'lookup_find'?  [toolset-unknown-method]
        tool(f"{NAME}_fi"),  # E: Folded.lookup_fi: Folded has no method 'lookup_fi' to export; did you mean 'lookup_find'?  [toolset-unknown-method]
        tool("z" * 2),  # E: Folded.zz: Folded has no method 'zz' to export  [toolset-unknown-method]
    )

    def lookup_find(self) -> None: ...
