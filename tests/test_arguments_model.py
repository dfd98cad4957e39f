"""The arguments model (one per method) and the one call pipeline behind the four entry points."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Annotated, Any

import attrs
import pytest

from typed_toolsets import Description, Limits, ToolResult, Toolset, register_type, tool
from typed_toolsets.call.exact import ExactPath, Failed
from typed_toolsets.definition.classes import class_info
from typed_toolsets.types.arguments import ArgumentsModel, _Once, locate
from typed_toolsets.types.catalog import registry
from typed_toolsets.types.structs import Property
from typed_toolsets.types.typespec import MISSING, Reject


class Counted:
    """A registered type whose structuring counts its calls."""

    calls = 0

    def __init__(self, value: int) -> None:
        self.value = value


def _count(value: int) -> Counted:
    Counted.calls += 1
    return Counted(value)


register_type(Counted, schema={"type": "integer"}, structure=_count, unstructure=lambda c: c.value)


@attrs.frozen
class Owner:
    name: str
    score: float = 0.0


class Fragile:
    """A registered type that cannot be built from a negative number."""

    def __init__(self, value: int) -> None:
        if value < 0:
            raise ValueError(value)
        self.value = value


register_type(Fragile, schema={"type": "integer"}, structure=Fragile, unstructure=lambda f: f.value)


@attrs.frozen
class Holder:
    score: float = 0.0
    fragile: Fragile = attrs.field(factory=lambda: Fragile(0))


class ModelToolset(Toolset):
    toolset_name = "model"

    @tool
    def plan(
        self,
        *,
        title: Annotated[str, Description("What to call it")],
        owner: Owner,
        steps: tuple[int, ...] = (),
        note: str | None = None,
    ) -> str:
        return f"{title}/{owner.name}/{len(steps)}/{note}"

    @tool
    def count(self, *, counted: Counted, n: int = 0, text: str = "") -> int:
        return counted.value + n

    @tool
    def hold(self, *, holder: Holder, n: int = 0) -> int:
        return n

    @tool
    async def later(self, *, n: int) -> int:
        await asyncio.sleep(0)
        return n


def proxies() -> dict[str, Any]:
    return {p.method_name: p for p in ModelToolset.to_tools()}


def model_of(method_name: str) -> ArgumentsModel:
    info = class_info(ModelToolset)
    assert info is not None
    (export,) = [e for e in info.exports if e.method_name == method_name]
    assert export.method is not None
    return export.method.arguments


class TestOneModelPerMethod:
    def test_the_model_is_the_methods_parameters_as_one_closed_object(self) -> None:
        model = model_of("plan")
        assert [p.name for p in model.params] == ["title", "owner", "steps", "note"]
        assert model.standard.properties == model.params
        schema = model.standard.schema
        assert schema["required"] == ["title", "owner"]
        assert schema["additionalProperties"] is False
        assert schema["properties"]["title"] == {"type": "string", "description": "What to call it"}
        # A struct field and a method parameter are described by the same code.
        assert schema["properties"]["owner"] == registry.spec(Owner).schema

    def test_a_proxy_shows_the_models_schema_and_every_proxy_shares_the_model(self) -> None:
        first, second = proxies()["plan"], proxies()["plan"]
        assert first.parameters == model_of("plan").standard.schema
        assert first.parameters is not model_of("plan").standard.schema  # a copy
        assert first._pipeline is second._pipeline  # one pipeline per export
        assert first._pipeline.exact.arguments is model_of("plan").standard

    def test_a_struct_with_the_same_fields_gets_the_same_schema(self) -> None:
        @attrs.frozen
        class PlanArguments:
            title: Annotated[str, Description("What to call it")]
            owner: Owner
            steps: tuple[int, ...] = ()
            note: str | None = None

        struct = dict(registry.spec(PlanArguments).schema)
        assert struct == model_of("plan").standard.schema

    def test_fast_paths_are_built_once_per_limits_and_exact_path(self) -> None:
        variant = model_of("plan").standard

        def other(arguments: object, refused: bool) -> None:
            return None

        assert variant.fast_path(100, 5, other) is variant.fast_path(100, 5, other)
        assert variant.fast_path(100, 5, other) is not variant.fast_path(100, 6, other)
        assert variant.fast_path(100, 5, other) is not variant.fast_path(100, 5, print)
        # Every proxy of a tool shares its pipeline, so its fast path.
        assert proxies()["plan"]._pipeline.fast is proxies()["plan"]._pipeline.fast
        # An exact path builds its fast path once, handed its bound ``__call__``: an equal exact
        # path has its own, of the same code, and each hands over to its own.
        exact = proxies()["plan"]._pipeline.exact
        assert exact.fast() is exact.fast() is proxies()["plan"]._pipeline.fast
        assert exact.strict() is exact.strict()
        twin = ExactPath(exact.name, exact.limits, exact.arguments)
        assert twin == exact
        assert twin.fast() is not exact.fast()
        assert twin.fast().__code__ is exact.fast().__code__
        refused = '{"title": 5}'
        checked = exact(refused)
        assert type(checked) is Failed
        for fast in (twin.fast(), exact.fast()):
            answer = fast(refused)
            assert type(answer) is Failed
            assert answer.message == checked.message

    def test_the_validator_is_built_once(self) -> None:
        variant = model_of("plan").standard
        assert variant.validator() is variant.validator()
        assert variant.validator().is_valid({"title": "t", "owner": {"name": "a"}})

    def test_build_from_properties(self) -> None:
        spec = registry.spec(int)
        model = ArgumentsModel.build(
            "f", [Property("n", "n", int, required=False, default=3, spec=spec)]
        )
        assert model.standard.schema == {
            "type": "object",
            "properties": {"n": {"type": "integer", "default": 3}},
            "required": [],
            "additionalProperties": False,
        }
        assert model.standard.structure({}) == {}
        assert model.standard.structure({"n": 2.0}) == {"n": 2}
        with pytest.raises(Reject):
            model.standard.structure({"n": 2, "m": 1})


class TestConvertLocatesWhatCannotBeBuilt:
    def test_convert_builds_valid_arguments_one_by_one(self) -> None:
        variant = model_of("plan").standard
        built = variant.convert({"title": "t", "owner": {"name": "a", "score": 3}})
        assert built == {"title": "t", "owner": Owner("a", 3.0)}

    def test_convert_names_the_innermost_failing_part(self) -> None:
        variant = model_of("plan").standard
        # A JSON integer too large for a float validates as a number, and cannot be built.
        failures = variant.convert({"title": "t", "owner": {"name": "a", "score": 10**400}})
        assert isinstance(failures, list)
        (failure,) = failures
        assert failure.path == ("owner", "score")
        assert failure.annotation is Owner
        assert isinstance(failure.cause, OverflowError)

    def test_locate_stops_at_the_value_itself(self) -> None:
        assert locate(registry.spec(int), "x") == [((), None)]
        assert locate(registry.spec(list[int]), [1, "x"]) == [((1,), None)]

    def test_locate_finds_every_failing_part_in_order_up_to_most(self) -> None:
        spec = registry.spec(list[list[int]])
        value = [["a", 1], [2], [3, "b", "c"]]
        assert locate(spec, value, 10) == [((0, 0), None), ((2, 1), None), ((2, 2), None)]
        assert locate(spec, value, 2) == [((0, 0), None), ((2, 1), None)]
        assert locate(spec, value) == [((0, 0), None)]


class TestOnce:
    def test_built_exactly_once_when_threads_race(self) -> None:
        built: list[int] = []
        gate = threading.Barrier(8)

        def build() -> int:
            time.sleep(0.01)
            built.append(1)
            return len(built)

        once = _Once(build)
        results: list[int] = []

        def worker() -> None:
            gate.wait()
            results.append(once.get())

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert built == [1]
        assert results == [1] * 8


class TestOnePipeline:
    def setup_method(self) -> None:
        Counted.calls = 0

    def test_a_refusal_structures_once_before_the_validator_explains(self) -> None:
        result = proxies()["count"].invoke('{"counted": 1, "n": "x"}')
        assert not result.ok
        assert result.error is not None
        assert result.error.message == (
            "Invalid arguments for tool 'model_count': n: 'x' is not of type 'integer'"
        )
        assert Counted.calls == 1  # the fast path's single attempt; the validator decides

    def test_a_colon_inside_a_string_is_structured_once(self) -> None:
        assert proxies()["count"].dynamic_call('{"counted": 1, "n": 2, "text": "a: b"}') == 3
        assert Counted.calls == 1

    def test_a_text_the_fast_path_cannot_vouch_for_is_structured_once_more(self) -> None:
        # A colon and an escaped one: orjson's parse is fine, but only the exact path can tell
        # whether a duplicate key was dropped.
        text = '{"counted": 1, "n": 2, "text": "a\\u003a b: c"}'
        assert proxies()["count"].dynamic_call(text) == 3
        assert Counted.calls == 2

    def test_a_mapping_is_structured_once(self) -> None:
        assert proxies()["count"].dynamic_call({"counted": 1, "n": 2}) == 3
        assert Counted.calls == 1

    @pytest.mark.parametrize(
        "arguments",
        [
            '{"counted": 2, "n": 3}',
            {"counted": 2},
            '{"counted": 2, "n": "3"}',
            '{"counted": 2, "counted": 3}',
            "[1]",
            "{",
            None,
            '{"counted": 2, "extra": 1}',
        ],
    )
    def test_dynamic_call_is_invoke_then_dynamic_in_all_four_forms(self, arguments: Any) -> None:
        proxy = proxies()["count"]
        result = proxy.invoke(arguments)
        assert isinstance(result, ToolResult)
        assert proxy.dynamic_call(arguments) == result.dynamic()
        assert asyncio.run(proxy.ainvoke(arguments)) == result
        assert asyncio.run(proxy.adynamic_call(arguments)) == result.dynamic()

    def test_a_tools_own_return_value_is_never_taken_for_a_failure(self) -> None:
        class Sly(Toolset):
            @tool
            def sly(self) -> object:
                return Failed  # the class itself, not an instance

        (sly,) = Sly.to_tools()
        assert sly.dynamic_call() is Failed
        assert sly.invoke().value is Failed

    def test_sync_and_async_differ_only_in_how_the_method_runs(self) -> None:
        later = proxies()["later"]
        assert asyncio.run(later.adynamic_call('{"n": 4}')) == 4
        assert later.dynamic_call('{"n": 4}') == 4  # no loop running: run to completion
        assert later.dynamic_call('{"n": "x"}') == asyncio.run(later.adynamic_call('{"n": "x"}'))

    def test_a_bug_in_the_exact_path_still_ends_in_an_error(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def broken(self: ExactPath, arguments: object, refused: bool) -> object:
            raise RuntimeError("bug")

        monkeypatch.setattr(ExactPath, "_check", broken)
        result = proxies()["count"].invoke("[]")
        assert result.error is not None
        assert result.error.kind == "arguments"
        assert result.error.message == (
            "Invalid arguments for tool 'model_count': they could not be processed "
            "(RuntimeError: bug)"
        )

    def test_a_bug_in_running_the_method_still_ends_in_an_error(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def broken(*args: object, **kwargs: object) -> object:
            raise RuntimeError("can't start new thread")

        monkeypatch.setattr("typed_toolsets.call.execution.start_thread", broken)
        (wait,) = SlowToolset.to_tools()
        result = wait.invoke({"seconds": 0})
        assert result.error is not None
        assert result.error.kind == "execution"
        assert "RuntimeError: can't start new thread" in result.error.message
        assert asyncio.run(wait.ainvoke({"seconds": 0})) == result


class SlowToolset(Toolset):
    limits = Limits(timeout=0.05)

    @tool
    def wait(self, *, seconds: float) -> str:
        time.sleep(seconds)
        return "done"


def test_timeouts_still_apply_through_the_pipeline() -> None:
    (wait,) = SlowToolset.to_tools()
    assert wait.dynamic_call('{"seconds": 0}') == "done"
    result = wait.invoke('{"seconds": 0.5}')
    assert result.error is not None
    assert result.error.kind == "timeout"


def test_property_defaults_are_missing_when_required() -> None:
    (title, *_) = model_of("plan").params
    assert title.required
    assert title.default is MISSING


class TestTheStrictForm:
    """The model's second variant: ``null`` for a default is read as the key left out."""

    def test_it_is_built_once_on_first_use_from_the_strict_form_of_the_types(self) -> None:
        model = model_of("plan")
        strict = model.strict
        assert strict is model.strict
        assert model.standard.strict_form() is strict
        assert strict.strict_form() is strict
        assert [p.name for p in strict.properties] == [p.name for p in model.params]
        assert [p.null_default for p in strict.properties] == [False, False, True, False]
        owner = strict.properties[1].spec
        assert owner is registry.strict_form().spec(Owner)
        assert owner is not registry.spec(Owner)

    def test_its_schema_admits_null_where_it_means_the_default(self) -> None:
        schema = model_of("plan").strict.schema
        assert schema["required"] == ["title", "owner"]  # keys left out still mean the default
        assert schema["properties"]["steps"] == {
            "anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}],
            "description": "null means the default ([]).",
        }
        # None is the default of a nullable parameter already: nothing to add.
        assert (
            schema["properties"]["note"] == model_of("plan").standard.schema["properties"]["note"]
        )
        score = schema["properties"]["owner"]["properties"]["score"]
        assert score["anyOf"] == [{"type": "number"}, {"type": "null"}]

    def test_the_structurer_leaves_the_key_out(self) -> None:
        strict = model_of("plan").strict
        given = {"title": "t", "owner": {"name": "a", "score": None}, "steps": None, "note": None}
        assert strict.structure(given) == {"title": "t", "owner": Owner("a"), "note": None}
        with pytest.raises(Reject):
            model_of("plan").standard.structure(given)
        assert strict.validator().is_valid(given)
        assert strict.convert(given) == strict.structure(given)

    def test_the_locator_looks_past_a_null_that_stands_for_a_default(self) -> None:
        strict = model_of("hold").strict
        # The fragile value validates but cannot be built; the nulls before it are defaults.
        given = {"holder": {"score": None, "fragile": -1}, "n": None}
        assert strict.validator().is_valid(given)
        found = strict.convert(given)
        assert isinstance(found, list)
        assert [(u.path, type(u.cause)) for u in found] == [(("holder", "fragile"), ValueError)]

    def test_user_rules_reach_the_strict_form_too(self) -> None:
        class Later:
            def __init__(self, value: str) -> None:
                self.value = value

        strict = registry.strict_form()
        register_type(Later, schema={"type": "string"}, structure=Later, unstructure=str)
        assert strict.spec(Later).schema == {"type": "string"}
        register_type(
            Later, schema={"type": "string", "minLength": 1}, structure=Later, unstructure=str
        )
        assert strict.spec(Later).schema == {"type": "string", "minLength": 1}
        assert strict.strict_form() is strict
