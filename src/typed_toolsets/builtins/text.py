"""The implementation of `typed_toolsets.text` (documented there)."""

from __future__ import annotations

from typing import Annotated, Final

import attrs
from annotated_types import Ge, Le, MaxLen

from typed_toolsets import ToolAnnotations, Toolset, tool
from typed_toolsets._public import public_in
from typed_toolsets.definition.validators import positive_int, positive_seconds
from typed_toolsets.rules.controls import escape_controls

from . import regex, text_ops
from .ere import check_grep_escapes
from .exceptions import (
    BuiltinToolError,
    InputTooLargeError,
    InvalidArgumentError,
    InvalidPatternError,
    ProgramFailedError,
    ProgramNotFoundError,
    ProgramTimeoutError,
)
from .inputs import MAX_PATTERN_BYTES, check_int, check_pattern, check_text, encode_text
from .outputs import cap_answer, cut_to_lines, decode_output, quote_pattern
from .programs import TimeBudget, failure_line, run_program, search_environment

__all__ = [
    "BuiltinToolError",
    "InputTooLargeError",
    "InvalidArgumentError",
    "InvalidPatternError",
    "ProgramFailedError",
    "ProgramNotFoundError",
    "ProgramTimeoutError",
    "TextProcessingToolset",
]

#: Line numbers are bounded so that no slice or count can overflow; well past any real text.
MAX_LINE_NUMBER: Final = 10_000_000
#: Most lines of context ``text_rg`` shows around a match.
MAX_CONTEXT: Final = 100

LineNumber = Annotated[int, Ge(-MAX_LINE_NUMBER), Le(MAX_LINE_NUMBER)]
#: A pattern parameter; its byte cap is checked again in the method (maxLength counts characters).
PatternText = Annotated[str, MaxLen(MAX_PATTERN_BYTES)]

_GREP_INSTALL: Final = "install GNU grep (Debian/Ubuntu: apt-get install grep)"
_RG_INSTALL: Final = "install ripgrep (Debian/Ubuntu: apt-get install ripgrep)"
_TIMEOUT_HINT: Final = "search less text or use a simpler pattern"
#: How filter_lines is stopped at its deadline.
_PART_LEFT: Final = "the lines matched so far are not returned"
#: What grep ("grep: Memory exhausted") and rg (Rust's "memory allocation of N bytes failed",
#: then SIGABRT) print when an allocation fails at the address-space cap.
_OUT_OF_MEMORY: Final = (b"memory exhausted", b"memory allocation of")
_SEARCH_CUT_HINT: Final = "refine the pattern or search less text"
_GREP_WARNING: Final = "grep: warning: "
#: Advice for grep's errors that are about counts, not syntax (keyed by a part of the error).
_GREP_COUNTS: Final = (
    "use a smaller repetition count (a{1,50} rather than a{1,32767}), with its lower bound not "
    "above its upper one"
)
_UNMATCHED: Final = (
    "every ( needs its ) and every [ its ]; to match one literally, put a backslash before it"
)
_GREP_ADVICE: Final = (
    ("too big", _GREP_COUNTS),
    ("Invalid content of", _GREP_COUNTS),
    ("Unmatched", _UNMATCHED),
    ("Trailing backslash", "end the pattern without a lone \\; write \\\\ to match a backslash"),
    ("Invalid range end", "a range in [...] runs from a lower character to a higher one ([a-z])"),
    (
        "Invalid character class name",
        (
            "name a POSIX class ([[:alpha:]], [[:digit:]], [[:space:]], [[:upper:]], ...), or "
            "use text_rg for Perl-style classes (\\d, \\w)"
        ),
    ),
    ("Invalid back reference", "refer only to a group the pattern has, as in (ab)\\1"),
)
_GREP_SYNTAX_HINT: Final = (
    "grep takes POSIX extended regular expressions: use [0-9] for digits, or text_rg for "
    "Perl-style classes"
)
#: rg ends some errors with a paragraph suggesting a flag (--pcre2, --multiline) that text_rg
#: cannot take. That paragraph is dropped, and advice keyed by a fragment of the error is added.
_RG_ADVICE: Final = (
    (
        "look-around",
        (
            "text_rg's regex has no look-around (lookahead or lookbehind): rewrite the pattern "
            "to match the neighbouring text itself"
        ),
    ),
    ("backreferences", "text_rg's regex has no backreferences: rewrite the pattern without them"),
    (
        '"\\n"',
        (
            "text_rg matches one line at a time, so no match can contain a newline: search for "
            "text within one line"
        ),
    ),
    ("size limit", "use a smaller repetition count or a narrower class"),
)


def _grep_arguments(pattern: str, *, ignore_case: bool, count_only: bool) -> list[str]:
    """The ``argv[1:]`` of grep: fixed options, ``-e PATTERN``, then stdin."""
    flags = ["-i"] if ignore_case else []
    if count_only:
        flags.append("-c")
    # -E: extended syntax. --binary-files=text: a NUL in the text must not turn the answer into
    # "binary file matches". "-" after "--": the text is read from stdin, named explicitly.
    return ["-E", "--color=never", "--binary-files=text", *flags, "-e", pattern, "--", "-"]


def _rg_arguments(pattern: str, *, context: int) -> list[str]:
    """The ``argv[1:]`` of rg: ``--no-config`` first, fixed options, ``-e PATTERN``, then stdin."""
    # --no-config first: a file named by RIPGREP_CONFIG_PATH could otherwise add --pre=COMMAND.
    # The output options are explicit so the format does not depend on rg's tty detection.
    # --encoding=none: the text is always UTF-8, and rg's default BOM sniffing would drop a
    # leading U+FEFF from the answer and let ^ match after it, unlike grep and filter_lines.
    arguments = [
        "--no-config",
        "--color=never",
        "--no-line-number",
        "--no-filename",
        "--text",
        "--encoding=none",
    ]
    if context > 0:
        arguments.append(f"--context={context}")
    return [*arguments, "-e", pattern, "--", "-"]


#: Advice keyed by what rg's error says and what the pattern holds: constructs of other engines
#: rg refuses in general words ("unrecognized flag"). (Python's re is never imported here.)
_RG_SPELLINGS: Final = (
    ("unrecognized flag", "(?<", "rg names a group (?P<name>...), not (?<name>...)"),
    (
        "repetition quantifier expects a valid decimal",
        "{,",
        "rg needs the lower bound of a repetition: write {0,n}, not {,n}",
    ),
    (
        "unrecognized escape sequence",
        "\\Z",
        "rg has no \\Z: write $ (each line is matched on its own) or \\z",
    ),
    (
        "unrecognized escape sequence",
        "\\Q",
        "rg has no \\Q...\\E quoting: put a backslash before each special character instead",
    ),
)


def _grep_explained(message: str, pattern: str) -> str:
    """The error *message* grep gave about *pattern*, with advice on what to write instead."""
    hint = next((text for said, text in _GREP_ADVICE if said in message), _GREP_SYNTAX_HINT)
    if message.endswith("Invalid regular expression") and pattern.endswith("["):
        hint = _UNMATCHED  # what GNU grep says of a [ at the very end, without naming it
    return f"{message} ({hint})"


#: What rg draws under a pattern to mark a part of it.
_CARET_MARKS: Final = frozenset(" ^-~")


def _carets_aligned(message: str) -> str:
    r"""The error *message* rg gave, escaped, each line of carets still under what it marks.

    rg draws ``^`` (and ``-`` between two) under the pattern it quotes; a control character
    escaped in the pattern's line (ESC is ``\x1b``) widens it, so the marks are widened alike.
    """
    lines = message.split("\n")
    shown = [escape_controls(line) for line in lines]
    for index in range(1, len(lines)):
        line, above = lines[index], lines[index - 1]
        if "^" not in line or set(line) - _CARET_MARKS or shown[index - 1] == above:
            continue
        marks: list[str] = []
        for column, mark in enumerate(line):
            width = len(escape_controls(above[column])) if column < len(above) else 1
            after = line[column + 1 : column + 2]
            fill = "-" if mark == "-" or (mark == "^" and after == "-") else " "
            marks.append(mark + fill * (width - 1))
        shown[index] = "".join(marks).rstrip()
    return "\n".join(shown)


def _escapes(pattern: str) -> set[str]:
    r"""The escapes of *pattern* (``\d``, ``\\``): each a backslash and the character after it."""
    found: set[str] = set()
    index = pattern.find("\\")
    while 0 <= index < len(pattern) - 1:
        found.add(pattern[index : index + 2])
        index = pattern.find("\\", index + 2)
    return found


def _rg_explained(message: str, pattern: str) -> str:
    """The error *message* of rg without its advice on flags text_rg cannot take, with ours."""
    paragraphs = [part.strip("\n") for part in message.split("\n\n")]
    kept = "\n\n".join(part for part in paragraphs if not part.startswith("Consider enabling"))
    advice = [text for fragment, text in _RG_ADVICE if fragment in kept]
    escapes = _escapes(pattern)
    advice += [
        text
        for said, found, text in _RG_SPELLINGS
        # An escape is looked for among the pattern's escapes: in C:\\Zone the Z is no \Z.
        if said in kept and found in (escapes if found.startswith("\\") else pattern)
    ]
    return kept + "".join(f"\n{text}" for text in advice)


def _no_matches(pattern: str) -> str:
    """The seed's answer for an empty search, with the pattern escaped like every output."""
    return f"No matches found for pattern {quote_pattern(pattern)}"


@public_in("typed_toolsets.text")
@attrs.define
class TextProcessingToolset(Toolset):
    """Text search and analysis tools: grep, word count, ripgrep, line extraction and more.

    Attributes:
        timeout: Seconds grep or rg may run before its process group is killed, and
            filter_lines (which runs here, with RE2) before it is stopped.
        max_output_bytes: Cap on what a tool returns, in UTF-8 bytes after escaping, and on
            what grep or rg may print (stdout and stderr together). A longer answer is cut at
            a line and ends with a ``[truncated: ...]`` note.
        max_text_bytes: Largest ``text`` accepted by any tool, in UTF-8 bytes.
        max_lines: Most lines accepted by the tools that hold every line in memory
            (``extract_lines``, ``filter_lines``, ``unique_lines``, ``sort_lines``).
        max_memory_bytes: Cap on the address space of each grep or rg run (Linux). GNU grep
            compiles a counted repetition such as ``a{1,32767}`` into gigabytes within
            seconds; at the cap its allocations fail and the pattern is refused.
    """

    toolset_name = "text"
    tool_annotations = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    exports = (
        tool("grep", description="Search for patterns in text using grep"),
        tool(
            "word_count",
            tool_name="text_wc",
            description="Count lines, words, and characters in text",
        ),
        tool("ripgrep", tool_name="text_rg", description="Fast text search using ripgrep"),
        tool("extract_lines", description="Extract specific line ranges from text"),
        tool("filter_lines", description="Filter lines matching or not matching a pattern"),
        tool("unique_lines", description="Get unique lines from text"),
        tool("sort_lines", description="Sort lines in text"),
        tool("summarize_text", description="Generate statistical summary of text content"),
    )

    timeout: float = attrs.field(default=10.0, validator=positive_seconds)
    max_output_bytes: int = attrs.field(default=1_000_000, validator=positive_int)
    max_text_bytes: int = attrs.field(default=8_000_000, validator=positive_int)
    max_lines: int = attrs.field(default=1_000_000, validator=positive_int)
    max_memory_bytes: int = attrs.field(default=1 << 30, validator=positive_int)

    # ------------------------------------------------------------------ external programs

    def grep(
        self, *, text: str, pattern: PatternText, ignore_case: bool = True, count_only: bool = False
    ) -> str:
        r"""Search text with ``grep -E``.

        Args:
            text: The text to search.
            pattern: A POSIX extended regular expression, e.g. ERROR|WARN. Use [0-9] for
                digits: \d is not a digit class in grep.
            ignore_case: Match regardless of case.
            count_only: Return only the number of matching lines.

        Returns:
            The matching lines, ``Found N matches for pattern '<p>'`` with *count_only*, or
            ``No matches found for pattern '<p>'``.
        """
        check_pattern(pattern, engine="grep", allow_newline=False)
        check_grep_escapes(pattern)
        arguments = _grep_arguments(pattern, ignore_case=ignore_case, count_only=count_only)
        data = encode_text(text, max_bytes=self.max_text_bytes)
        output = self._search("grep", arguments, data, _GREP_INSTALL, pattern)
        if count_only:
            found = f"Found {output.strip()} matches for pattern {quote_pattern(pattern)}"
            return self._answer(found, _SEARCH_CUT_HINT)
        return output or self._answer(_no_matches(pattern), _SEARCH_CUT_HINT)

    def ripgrep(
        self,
        *,
        text: str,
        pattern: PatternText,
        context: Annotated[int, Ge(0), Le(MAX_CONTEXT)] = 0,
    ) -> str:
        r"""Search text with ripgrep (case-sensitive).

        Args:
            text: The text to search.
            pattern: A ripgrep (Rust regex) pattern, matched case-sensitively, e.g. \d+ or
                ERROR|WARN.
            context: Lines of context to show before and after each match (0 to 100).

        Returns:
            The matching lines (with context lines, groups separated by ``--``), or
            ``No matches found for pattern '<p>'``.
        """
        check_pattern(pattern, engine="ripgrep", allow_newline=False)
        check_int(context, name="context", low=0, high=MAX_CONTEXT)
        data = encode_text(text, max_bytes=self.max_text_bytes)
        output = self._search(
            "rg", _rg_arguments(pattern, context=context), data, _RG_INSTALL, pattern
        )
        return output or self._answer(_no_matches(pattern), _SEARCH_CUT_HINT)

    def _search(
        self, program: str, arguments: list[str], data: bytes, install: str, pattern: str
    ) -> str:
        result = run_program(
            program,
            arguments,
            env=search_environment(),
            input_bytes=data,
            timeout=self.timeout,
            max_output_bytes=self.max_output_bytes,
            install_hint=install,
            timeout_hint=_TIMEOUT_HINT,
            max_memory_bytes=self.max_memory_bytes,
        )
        name = "grep" if program == "grep" else "ripgrep"
        if result.returncode not in (0, 1) and any(
            marker in result.stderr.lower() for marker in _OUT_OF_MEMORY
        ):
            msg = (
                f"{name} ran out of memory on the pattern {quote_pattern(pattern)} (a search may "
                f"use {self.max_memory_bytes / (1 << 20):,.0f} MiB); use smaller repetition "
                "counts (a{1,50} rather than a{1,32767}) or a simpler pattern, or search less text"
            )
            raise InvalidPatternError(msg)
        if program == "grep" and (result.returncode in (0, 1) or result.truncated):
            # grep warns of a pattern it reads in a way the writer hardly meant ("? at start of
            # expression" for Perl's (?i), "+ at start", "stray \ before ..."), then answers;
            # a grep stopped at the output cap has warned before its first line, all the same.
            warnings = [
                line
                for line in decode_output(result.stderr).splitlines()
                if line.startswith(_GREP_WARNING)
            ]
            if warnings:
                explained = f"{'; '.join(warnings)} ({_GREP_SYNTAX_HINT})"
                msg = f"grep rejected the pattern {quote_pattern(pattern)}: {explained}"
                raise InvalidPatternError(msg)
        if result.truncated:
            return self._answer(
                decode_output(cut_to_lines(result.stdout)), _SEARCH_CUT_HINT, cut=True
            )
        if result.returncode in (0, 1):
            return self._answer(decode_output(result.stdout), _SEARCH_CUT_HINT)
        # Both exit 2 on an error; when they only read stdin, the error is in the pattern.
        if result.returncode == 2:
            if program == "grep":
                message = decode_output(result.stderr).strip() or "(no message)"
                explained = _grep_explained(message, pattern)
            else:
                raw = result.stderr.decode("utf-8", errors="replace").strip()
                explained = _rg_explained(_carets_aligned(raw) or "(no message)", pattern)
            msg = f"{name} rejected the pattern {quote_pattern(pattern)}: {explained}"
            raise InvalidPatternError(msg)
        raise ProgramFailedError(failure_line(program, result))

    def _answer(self, text: str, hint: str, *, cut: bool = False) -> str:
        """*text* (escaped) as a tool returns it: within `max_output_bytes`, or cut with a note."""
        note = f"[truncated: the output exceeded {self.max_output_bytes:,} bytes; {hint}]"
        return cap_answer(text, max_bytes=self.max_output_bytes, note=note, cut=cut)

    # ------------------------------------------------------------------ pure Python

    def _text(self, text: str, *, whole_lines: bool = False) -> str:
        check_text(text, max_bytes=self.max_text_bytes)
        if whole_lines:
            lines = text_ops.count_lines(text)
            if lines > self.max_lines:
                msg = (
                    f"`text` has {lines:,} lines; the limit is {self.max_lines:,} lines; send a "
                    "smaller part of the text"
                )
                raise InputTooLargeError(msg)
        return text

    def word_count(
        self,
        *,
        text: str,
        lines_only: bool = False,
        words_only: bool = False,
        chars_only: bool = False,
    ) -> str:
        """Count lines, words and characters.

        Args:
            text: The text to count.
            lines_only: Return only the line count ("Lines: N").
            words_only: Return only the word count ("Words: N"), unless lines_only is set.
            chars_only: Return only the character count ("Characters: N"), unless lines_only
                or words_only is set.

        Returns:
            ``Lines: L, Words: W, Characters: C``, or the single count asked for.
        """
        counts = text_ops.word_count(
            self._text(text), lines_only=lines_only, words_only=words_only, chars_only=chars_only
        )
        return self._answer(counts, "send less text")

    def extract_lines(
        self, *, text: str, start_line: LineNumber, end_line: LineNumber | None = None
    ) -> str:
        """Return a range of lines, with their line endings.

        Args:
            text: The text to take lines from.
            start_line: The first line to return, counting from 1 (values below 1 mean 1).
            end_line: The last line to return, inclusive; omit it for the single line
                start_line. 0 means the last line and negative values count back from the end
                (-1 is the second-to-last line).

        Returns:
            The lines, or an empty string when the range holds none.
        """
        lines = text_ops.extract_lines(self._text(text, whole_lines=True), start_line, end_line)
        return self._answer(escape_controls(lines), "ask for fewer lines")

    def filter_lines(self, *, text: str, pattern: PatternText, invert: bool = False) -> str:
        """Keep the lines that match a regular expression, ignoring case.

        Args:
            text: The text to filter.
            pattern: An RE2 regular expression (Python-like syntax without backreferences or
                lookaround), matched case-insensitively anywhere in each line.
            invert: Keep the lines that do not match instead.

        Returns:
            The kept lines, with their line endings.
        """
        check_pattern(pattern, engine="RE2")
        text = self._text(text, whole_lines=True)
        # Run here, not as a program: bounded by the same timeout, checked between searches.
        budget = TimeBudget.start("filter_lines", self.timeout)
        try:
            kept = regex.filter_lines(text, pattern, invert=invert, deadline=budget.deadline)
        except TimeoutError:
            raise budget.spent(_PART_LEFT, _TIMEOUT_HINT) from None
        return self._answer(escape_controls(kept), _SEARCH_CUT_HINT)

    def unique_lines(self, *, text: str, preserve_order: bool = True) -> str:
        """Drop repeated lines.

        Args:
            text: The text to de-duplicate.
            preserve_order: Keep first occurrences in input order; false sorts the lines.

        Returns:
            The unique lines, each ending with a newline.
        """
        unique = text_ops.unique_lines(
            self._text(text, whole_lines=True), preserve_order=preserve_order
        )
        return self._answer(escape_controls(unique), "send less text")

    def sort_lines(self, *, text: str, reverse: bool = False, numeric: bool = False) -> str:
        """Sort lines.

        Args:
            text: The text to sort.
            reverse: Sort in descending order.
            numeric: Sort by the number at the start of each line (a line without one counts
                as 0).

        Returns:
            The sorted lines, each ending with a newline.
        """
        ordered = text_ops.sort_lines(
            self._text(text, whole_lines=True), reverse=reverse, numeric=numeric
        )
        return self._answer(escape_controls(ordered), "send less text")

    def summarize_text(self, *, text: str) -> str:
        """Summarize text statistics: counts, averages and the most frequent words.

        Args:
            text: The text to summarize.

        Returns:
            The ``Text Summary:`` block.
        """
        # The most frequent words are printed whole, and one word can be the whole text.
        return self._answer(text_ops.summarize(self._text(text)), "send less text")
