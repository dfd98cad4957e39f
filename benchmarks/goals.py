"""The goals a benchmark checks: each printed as met or missed, and the exit status they give."""


def check(missed: list[str], ok: bool, shown: str, why: str) -> None:
    """Print the goal *shown* as met or missed; a missed one adds *why* to *missed*."""
    print(f"  [{'ok' if ok else 'MISSED'}] {shown}")
    if not ok:
        missed.append(why)


def status(missed: list[str]) -> int:
    """Print what was missed, or that every goal was met; the script's exit status."""
    if missed:
        print("\nMISSED: " + "; ".join(missed))
        return 1
    print("\nAll goals met.")
    return 0
