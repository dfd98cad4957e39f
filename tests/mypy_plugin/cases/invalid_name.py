from typing import Final

from typed_toolsets import Toolset, tool

from remote_base import RemoteBase
from remote_exports import PREFIX

SPACED: Final = "find things"
APP: Final = "crm"


class Bad(Toolset):
    exports = (
        tool("a", tool_name="find things"),  # E: Bad.a: the tool name 'find things' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
        tool("b", tool_name=SPACED),  # E: Bad.b: the tool name 'find things' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
        tool("c", tool_name="9lives"),  # E: Bad.c: the tool name '9lives' is not valid for LLM APIs: it starts with '9' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
        tool("d", tool_name="x" * 3),
        tool("e", tool_name="y" * 65),  # E: Bad.e: the tool name 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy' is not valid for LLM APIs: it is too long (65 > 64 characters) (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
        tool("f", tool_name="-dash"),  # E: Bad.f: the tool name '-dash' is not valid for LLM APIs: it starts with '-' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
        tool("g", tool_name="ok-name_1"),
    )

    def a(self) -> None: ...
    def b(self) -> None: ...
    def c(self) -> None: ...
    def d(self) -> None: ...
    def e(self) -> None: ...
    def f(self) -> None: ...
    def g(self) -> None: ...


class Spaced(Toolset):
    toolset_name = "my tools"

    @tool  # E: Spaced.run: the tool name 'my tools_run' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def run(self) -> None: ...

    @tool(tool_name="explicit")
    def walk(self) -> None: ...


class LongPrefixToolsetWithAVeryLongClassNameThatGoesOnAndOnForeverAndEver(Toolset):
    @tool  # E: LongPrefixToolsetWithAVeryLongClassNameThatGoesOnAndOnForeverAndEver.method: the tool name 'longprefixtoolsetwithaverylongclassnamethatgoesonandonforeverandever_method' is not valid for LLM APIs: it is too long (75 > 64 characters) (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def method(self) -> None: ...


class RenamedRemote(RemoteBase):  # N: RenamedRemote inherits the declaration of 'assign' from RemoteBase (line 9 of remote_base)
    toolset_name = "not valid"  # E: RenamedRemote.assign: the tool name 'not valid_assign' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]


class Formatted(Toolset):
    # f-strings of literals and Final str constants are read, as `PREFIX + "_find"` is.
    toolset_name = f"{APP} tools"
    exports = (tool("find", tool_name=f"{APP}_find"),)

    def find(self) -> None: ...

    @tool  # E: Formatted.run: the tool name 'crm tools_run' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def run(self) -> None: ...

    @tool(tool_name=f"{APP}.add")  # E: Formatted.add: the tool name 'crm.add' is not valid for LLM APIs: it contains '.' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def add(self) -> None: ...


class ImportedPrefix(Toolset):
    # Another module's Final constants are read in constant expressions too (PREFIX is "shop").
    toolset_name = PREFIX + " tools"
    exports = (tool("shop_find", tool_name=PREFIX + ".find"),)  # E: ImportedPrefix.shop_find: the tool name 'shop.find' is not valid for LLM APIs: it contains '.' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]

    def shop_find(self) -> None: ...

    @tool  # E: ImportedPrefix.run: the tool name 'shop tools_run' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def run(self) -> None: ...


class NamedAndTyped(Toolset):
    # A name problem does not hide the method's own problems: every one is reported at once.
    @tool(tool_name="bad name")  # E: NamedAndTyped.run: the tool name 'bad name' is not valid for LLM APIs: it contains ' ' (names must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$: letters, digits, '_' and '-', at most 64 characters, not starting with a digit or '-')  [toolset-invalid-name]
    def run(self, blob: bytes) -> None: ...  # E: NamedAndTyped.run: parameter 'blob' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]

    @tool(tool_name="namedandtyped_walk")
    def first(self) -> None: ...

    @tool  # E: NamedAndTyped.walk: the tool name 'namedandtyped_walk' is already exported by the method 'first'  [toolset-duplicate-name]
    def walk(self, *, blob: object) -> None: ...  # E: NamedAndTyped.walk: parameter 'blob' has type object, which has no JSON Schema (object has no JSON Schema; use a concrete type)  [toolset-param-type]


class NotAString(Toolset):
    # The run time takes the default name instead (`notastring`), as the plugin does.
    toolset_name = 123  # E: NotAString: `toolset_name` must be a str (got 123)  [toolset-invalid-name]  # E: Incompatible types in assignment (expression has type "int", base class "Toolset" defined the type as "str")  [assignment]

    @tool(tool_name="notastring_run")
    def first(self) -> None: ...

    @tool  # E: NotAString.run: the tool name 'notastring_run' is already exported by the method 'first'  [toolset-duplicate-name]
    def run(self) -> None: ...


class NoName(Toolset):
    toolset_name = None  # E: NoName: `toolset_name` must be a str (got None)  [toolset-invalid-name]  # E: Incompatible types in assignment (expression has type "None", base class "Toolset" defined the type as "str")  [assignment]

    @tool
    def run(self) -> None: ...
