"""Why a run of the agent stopped without a final answer: `MaxIterationsError`, the deadline.

Hierarchy (below `typed_toolsets.TypedToolsetsError`)::

    AgentError                  a run stopped without a final answer; carries the steps
    ├── MaxIterationsError      the model took max_iterations steps without finishing
    └── DeadlineExceededError   (also a TimeoutError) the run's deadline passed

Tool failures, unknown actions, malformed steps and refused approvals are never raised: they
are observations the model reads and corrects. Exceptions raised by the application's own code
(the model callable, the approval callback) propagate unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from typed_toolsets import TypedToolsetsError
from typed_toolsets._public import public_in
from typed_toolsets.definition.errors import notes_state

from .steps import Step

__all__ = ["AgentError", "DeadlineExceededError", "MaxIterationsError"]


def _tools_called(steps: tuple[Step, ...]) -> str:
    names = list(dict.fromkeys(s.action for s in steps if _ran(s) and s.action))
    return ", ".join(names) if names else "none"


#: The kinds of error of a call whose method never started (its arguments refused, a limit).
_NOT_STARTED: Final = frozenset({"arguments", "limit"})


def _ran(step: Step) -> bool:
    """Whether the step's tool was called: not when its arguments were refused before."""
    result = step.result
    return result is not None and (result.error is None or result.error.kind not in _NOT_STARTED)


@public_in("typed_toolsets.agent")
class AgentError(TypedToolsetsError):
    """A run of the agent stopped without a final answer.

    Attributes:
        steps: Every step taken before the run stopped, in order.
    """

    steps: tuple[Step, ...]

    def __init__(self, message: str, steps: Iterable[Step] = ()) -> None:
        self.steps = tuple(steps)
        super().__init__(message)

    @property
    def iterations(self) -> int:
        """How many steps the model took (``len(steps)``)."""
        return len(self.steps)


@public_in("typed_toolsets.agent")
class MaxIterationsError(AgentError):
    """The model took ``max_iterations`` steps without giving a final answer.

    Attributes:
        steps: The steps taken (as many as ``max_iterations``).
        max_iterations: The bound the run was given.
    """

    max_iterations: int

    def __init__(self, steps: Iterable[Step], max_iterations: int) -> None:
        self.max_iterations = max_iterations
        done = tuple(steps)
        message = (
            f"The agent took max_iterations={max_iterations} steps without a final answer "
            f"(tools called: {_tools_called(done)}); raise max_iterations, or give the model a "
            "task it can finish in fewer steps"
        )
        super().__init__(message, done)

    def __reduce__(
        self,
    ) -> tuple[type[MaxIterationsError], tuple[tuple[Step, ...], int], dict[str, object] | None]:
        # The default rebuilds the exception from its message alone.
        return type(self), (self.steps, self.max_iterations), notes_state(self)


@public_in("typed_toolsets.agent")
class DeadlineExceededError(AgentError, TimeoutError):
    """The run's deadline passed before the model gave a final answer.

    Attributes:
        steps: The steps completed before the deadline (a tool call stopped by the deadline is
            the last step, its observation saying so).
        deadline: The deadline the run was given, in seconds.
        waiting_for: What the run was doing or about to do: ``"the model"``,
            ``"tool '<name>'"``, ``"the approval of '<name>'"`` or ``"the check of the arguments
            of '<name>'"`` (reading them for an approval).
    """

    deadline: float
    waiting_for: str

    def __init__(self, steps: Iterable[Step], deadline: float, waiting_for: str) -> None:
        self.deadline = deadline
        self.waiting_for = waiting_for
        done = tuple(steps)
        count = f"{len(done)} step{'' if len(done) == 1 else 's'}"
        message = (
            f"The agent's deadline of {deadline:g} s passed after {count}, at {waiting_for}; "
            "give the run a longer deadline, or the tools a Limits(timeout=...)"
        )
        super().__init__(message, done)

    def __reduce__(
        self,
    ) -> tuple[
        type[DeadlineExceededError], tuple[tuple[Step, ...], float, str], dict[str, object] | None
    ]:
        return type(self), (self.steps, self.deadline, self.waiting_for), notes_state(self)
