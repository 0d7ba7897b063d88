"""hipify-py prove's comparison engine on recorded outputs: tolerances, ignore
and mask rules, exit codes, written files, and programs that disagree with
themselves.  The originals are the CUDA outputs recorded on an H200
(hip_smoke/expected/); the translations are those outputs as a translation
might print them."""

from __future__ import annotations

from conftest import REPO

from hip_smoke.prove_compare import (
    DIFFERENT,
    FAILED,
    SAME,
    UNSTABLE,
    Output,
    Rules,
    compare_outputs,
    judge,
    prepare,
)

RECORDED = REPO / "hip_smoke" / "expected"
VECTOR_ADD = (RECORDED / "vector_add.txt").read_text(encoding="utf-8")
STREAMS = (RECORDED / "streams_events.txt").read_text(encoding="utf-8")


def out(stdout: str, code: int | None = 0, files: dict[str, bytes | None] | None = None) -> Output:
    return Output(stdout, code, files or {})


def test_identical_recorded_outputs_are_the_same() -> None:
    assert judge([out(VECTOR_ADD)] * 2, [out(VECTOR_ADD)] * 2, Rules()).status == SAME


def test_line_endings_and_trailing_blanks_do_not_count() -> None:
    translated = VECTOR_ADD.replace("\n", "  \r\n") + "\n\n"
    assert compare_outputs(out(VECTOR_ADD), out(translated), Rules()) is None


def test_numbers_are_exact_by_default_and_the_difference_says_where_and_how_much() -> None:
    translated = VECTOR_ADD.replace("checksum = 346749906.00", "checksum = 346749906.50")
    verdict = judge([out(VECTOR_ADD)], [out(translated)], Rules())
    assert verdict.status == DIFFERENT
    difference = verdict.difference
    assert difference is not None
    assert difference.where == "stdout line 5"
    assert (difference.expected, difference.got) == (
        "checksum = 346749906.00",
        "checksum = 346749906.50",
    )
    assert difference.delta == 0.5 and difference.allowed == 0.0
    assert "difference 0.5 > tolerance 0" in verdict.detail


def test_relative_and_absolute_tolerances() -> None:
    translated = VECTOR_ADD.replace("checksum = 346749906.00", "checksum = 346749906.50")
    # 0.5 / 3.47e8 = 1.4e-9
    assert compare_outputs(out(VECTOR_ADD), out(translated), Rules(rtol=1e-8)) is None
    assert compare_outputs(out(VECTOR_ADD), out(translated), Rules(atol=0.5)) is None
    found = compare_outputs(out(VECTOR_ADD), out(translated), Rules(rtol=1e-10, atol=0.01))
    assert found is not None and found.allowed is not None
    assert abs(found.allowed - (0.01 + 1e-10 * 346749906.5)) < 1e-12
    # a tolerance never excuses different text around the numbers
    worded = VECTOR_ADD.replace("checksum = ", "check sum = ")
    found = compare_outputs(out(VECTOR_ADD), out(worded), Rules(rtol=1.0))
    assert found is not None and found.delta is None


def test_nan_and_infinity() -> None:
    rules = Rules(rtol=1e-3)
    assert compare_outputs(out("x = nan\n"), out("x = nan\n"), rules) is None
    assert compare_outputs(out("x = nan\n"), out("x = 1.0\n"), rules) is not None
    assert compare_outputs(out("x = inf\n"), out("x = inf\n"), rules) is None
    assert compare_outputs(out("x = inf\n"), out("x = -inf\n"), rules) is not None


def test_ignored_lines_and_masked_text() -> None:
    original = "elapsed: 1.234 ms\nbuffer at 0x7f3a2c000000\nPASS\n"
    translated = "elapsed: 9.876 ms\nbuffer at 0x7fe100200000\nPASS\n"
    assert compare_outputs(out(original), out(translated), Rules()) is not None
    rules = Rules(ignore=(r"^elapsed:",), mask=(r"0x[0-9a-f]+",))
    assert compare_outputs(out(original), out(translated), rules) is None
    assert prepare(original, rules) == [(2, "buffer at <masked>"), (3, "PASS")]
    # the line numbers reported are the program's own, ignored lines included
    found = compare_outputs(out(original), out(translated.replace("PASS", "FAIL")), rules)
    assert found is not None and found.where == "stdout line 3"


def test_missing_and_extra_lines() -> None:
    shorter = "\n".join(STREAMS.splitlines()[:-1])
    found = compare_outputs(out(STREAMS), out(shorter), Rules())
    assert found is not None
    assert "8 lines expected, 7 got" in found.where
    assert (found.expected, found.got) == ("PASS", "<end of output>")
    found = compare_outputs(out(shorter), out(STREAMS), Rules())
    assert found is not None and found.got == "PASS"


def test_exit_codes() -> None:
    # the translation exits 1: different, and the detail says so
    verdict = judge([out(VECTOR_ADD)], [out(VECTOR_ADD, 1)], Rules())
    assert verdict.status == DIFFERENT
    assert "exit code 1, expected 0" in verdict.detail
    # an original that does not exit as expected cannot be compared with
    verdict = judge([out(VECTOR_ADD, 3)], [out(VECTOR_ADD, 3)], Rules())
    assert verdict.status == FAILED
    assert verdict.detail.startswith("the CUDA original: run 1: exit code 3")
    # exit-code = "any": equal on both sides is enough
    assert judge([out("x\n", 3)], [out("x\n", 3)], Rules(exit_code=None)).status == SAME
    found = compare_outputs(out("x\n", 3), out("x\n", 4), Rules(exit_code=None))
    assert found is not None and found.where == "exit code"


def test_a_timed_out_translation_is_different() -> None:
    hung = Output("", None, error="timed out after 60 s")
    verdict = judge([out(VECTOR_ADD)], [hung], Rules())
    assert verdict.status == DIFFERENT
    assert "timed out after 60 s" in verdict.detail


def test_written_files_text_and_binary() -> None:
    rules = Rules(files=("hist.txt", "raw.bin"), rtol=1e-6)
    original = out("PASS\n", files={"hist.txt": b"0 1000\n1 2000.0\n", "raw.bin": b"\x00\x01\x02"})
    close = out(
        "PASS\n", files={"hist.txt": b"0 1000\n1 2000.0000001\n", "raw.bin": b"\x00\x01\x02"}
    )
    assert compare_outputs(original, close, rules) is None
    other = out("PASS\n", files={"hist.txt": b"0 1000\n1 2000.0\n", "raw.bin": b"\x00\x01\x03\xff"})
    found = compare_outputs(original, other, rules)
    assert found is not None
    assert (found.where, found.expected, found.got) == ("file raw.bin byte 2", "02", "03ff")
    missing = out("PASS\n", files={"hist.txt": None, "raw.bin": b"\x00\x01\x02"})
    found = compare_outputs(original, missing, rules)
    assert found is not None and found.where == "file hist.txt" and found.got == "<not written>"
    text = out("PASS\n", files={"hist.txt": b"0 1000\n1 2001.0\n", "raw.bin": b"\x00\x01\x02"})
    found = compare_outputs(original, text, rules)
    assert found is not None and found.where == "file hist.txt line 2"


def test_stderr_is_compared_only_when_asked() -> None:
    a = Output("PASS\n", 0, stderr="warning: slow\n")
    b = Output("PASS\n", 0, stderr="")
    assert compare_outputs(a, b, Rules()) is None
    assert compare_outputs(a, b, Rules(stderr=True)) is not None


def test_an_original_that_disagrees_with_itself_is_flagged_not_blamed_on_the_translation() -> None:
    run1 = STREAMS
    run2 = STREAMS.replace("total = 20984106319", "total = 20984106320")
    verdict = judge([out(run1), out(run2)], [out(run1), out(run1)], Rules())
    assert verdict.status == UNSTABLE
    assert verdict.detail.startswith("the CUDA original is not reproducible")
    assert verdict.difference is not None
    assert verdict.difference.where == "run 1 vs run 2: stdout line 4"
    # ignoring that line (or a tolerance that covers it) makes it comparable
    assert judge([out(run1), out(run2)], [out(run1)] * 2, Rules(atol=1.0)).status == SAME


def test_a_translation_that_disagrees_with_itself_is_unstable() -> None:
    run2 = VECTOR_ADD.replace("mismatches = 0", "mismatches = 3")
    verdict = judge([out(VECTOR_ADD)] * 2, [out(VECTOR_ADD), out(run2)], Rules())
    assert verdict.status == UNSTABLE
    assert verdict.detail.startswith("the translation is not reproducible")
    # with one run per side nothing can be said about reproducibility
    assert judge([out(VECTOR_ADD)], [out(run2)], Rules()).status == DIFFERENT
