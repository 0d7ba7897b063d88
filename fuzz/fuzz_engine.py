"""Long-running fuzzer for the engine (hipify_py.translate_bytes).

    pip install atheris          # coverage-guided, libFuzzer mutations (preferred)
    python fuzz/fuzz_engine.py -max_total_time=1800 -timeout=30 -max_len=8192 \
        -dict=fuzz/cuda.dict fuzz/corpus      # seeds: fuzz/seeds.py fills fuzz/corpus

    python fuzz/fuzz_engine.py --hypothesis --minutes 30   # without atheris

Every input is translated with options chosen from its first byte, and checked:

* no exception escapes, and no "internal error" diagnostic (the engine turns
  an exception into one; for the fuzzer that is a crash all the same);
* no hang: an input taking longer than SLOW_SECONDS is recorded (libFuzzer's
  -timeout kills the run beyond its bound);
* the output, parsed again, has no more ERROR/MISSING nodes than the input;
* idempotent: translating the output again changes nothing.

A failed check does not stop the run: the input is saved under
$FUZZ_FINDINGS (default /tmp/hipify-fuzz-findings) as KIND-SHA.bin with a
.txt holding the reason, once per distinct reason, and counted.  At exit (and
every 10,000 inputs) a line with the number of inputs tried and the findings
by kind is printed.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

SLOW_SECONDS = float(os.environ.get("FUZZ_SLOW_SECONDS", "5"))
FINDINGS = Path(os.environ.get("FUZZ_FINDINGS", "/tmp/hipify-fuzz-findings"))

_tried = 0
_found: Counter[str] = Counter()
_reasons: set[str] = set()
_start = time.monotonic()


def _options(flags: int):  # -> Options
    from hipify_py import Options
    from hipify_py.tables.versions import parse_version

    return Options(
        launch_syntax="hip" if flags & 1 else "keep",
        hip_version=parse_version("5.7") if flags & 2 else None,
        rewrite_strings=bool(flags & 4),
        fix_warp_size=bool(flags & 8),
        annotate=bool(flags & 16),
        roc=bool(flags & 32),
    )


def _record(kind: str, data: bytes, reason: str) -> None:
    _found[kind] += 1
    key = f"{kind}:{reason.splitlines()[-1] if reason else ''}"[:300]
    if key in _reasons:
        return
    _reasons.add(key)
    FINDINGS.mkdir(parents=True, exist_ok=True)
    name = f"{kind}-{hashlib.sha256(data).hexdigest()[:16]}"
    (FINDINGS / f"{name}.bin").write_bytes(data)
    (FINDINGS / f"{name}.txt").write_text(reason)


def check(data: bytes) -> list[tuple[str, str]]:
    """The findings for one input (kind, reason); [] when every check holds."""
    from hipify_py import translate_bytes
    from hipify_py.tables.cache import load_table

    table = load_table()
    flags, source = (data[0], data[1:]) if data else (0, b"")
    options = _options(flags)
    found: list[tuple[str, str]] = []
    began = time.monotonic()
    try:
        result = translate_bytes(source, table, options)
    except Exception:
        return [("crash", traceback.format_exc())]
    took = time.monotonic() - began
    if took > SLOW_SECONDS:
        found.append(("slow", f"{took:.1f} s for {len(source)} bytes"))
    for d in result.diagnostics:
        if "internal error" in d.message or "nests too deeply" in d.message:
            found.append(("internal", d.message))
    if result.skipped is not None or not result.changed:
        return found
    from test_properties import parse_regression

    regression = parse_regression(result)
    if regression is not None:
        found.append(("parse", regression))
    try:
        again = translate_bytes(result.data, table, options)
    except Exception:
        return [*found, ("crash", "second pass: " + traceback.format_exc())]
    if again.data != result.data:
        found.append(("idempotent", "a second translation changed the output"))
    return found


def one_input(data: bytes) -> None:
    global _tried
    _tried += 1
    for kind, reason in check(data):
        _record(kind, data, reason)
    if _tried % 10000 == 0:
        _report()


def _report() -> None:
    minutes = (time.monotonic() - _start) / 60
    kinds = ", ".join(f"{k}={v}" for k, v in sorted(_found.items())) or "none"
    print(
        f"#fuzz: {_tried} inputs in {minutes:.1f} min; findings: {kinds}; saved in {FINDINGS}",
        file=sys.stderr,
        flush=True,
    )


def _hypothesis(minutes: float) -> None:
    """Hypothesis at scale: the token grammar of tests/test_properties.py plus raw bytes."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from test_properties import cuda_like, nested

    deadline = time.monotonic() + minutes * 60

    @settings(
        max_examples=10**9,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        st.integers(0, 255),
        st.one_of(cuda_like.map(str.encode), nested.map(str.encode), st.binary(max_size=2000)),
    )
    def run(flags: int, source: bytes) -> None:
        if time.monotonic() > deadline:
            raise _Done
        one_input(bytes([flags]) + source)

    with contextlib.suppress(_Done):
        run()


class _Done(Exception):
    pass


def main() -> None:
    atexit.register(_report)
    if "--hypothesis" in sys.argv:
        minutes = float(sys.argv[sys.argv.index("--minutes") + 1]) if "--minutes" in sys.argv else 5
        _hypothesis(minutes)
        return
    import atheris

    with atheris.instrument_imports(include=["hipify_py"]):
        import hipify_py.engine.translate
        import hipify_py.rules  # noqa: F401
        from hipify_py.rules import all_rules

        all_rules()  # imports every rule module under instrumentation
    import test_properties  # noqa: F401  (the parse_regression check; not instrumented)

    from hipify_py.tables.cache import load_table

    load_table()
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
