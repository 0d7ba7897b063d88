"""Hypothesis properties of the engine (bounded, part of the normal run)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipify_py import Options, load_table, translate_bytes
from hipify_py.engine import FileResult

TABLE = load_table()
CUDA_NAMES = [
    *sorted(n for n, r in TABLE.names.items() if r.hip)[:400:7],
    "cudaMalloc",
    "cudaFree",
    "cudaStream_t",
    "cudaMemcpyHostToDevice",
    "cub",
    "__syncthreads",
]
PLAIN_WORDS = [
    "x",
    "y",
    "foo",
    "bar_1",
    "int",
    "float",
    "return",
    "if",
    "std",
    "vector",
    "myMalloc",
]
PUNCT = [
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "::",
    ".",
    "->",
    "<",
    ">",
    "=",
    "+",
    "*",
    "&",
    " ",
    "\n",
    "\r\n",
]
TRIVIA = [
    "// note cudaMalloc\n",
    "/* cudaFree */",
    '"cudaMalloc"',
    "'c'",
    "#define M(a) cudaFree(a)\n",
    "#include <cuda_runtime.h>\n",
    '#include "local.h"\n',
    "#if CUDART_VERSION\n",
    "#endif\n",
    "<<<g, b>>>",
    "__global__ ",
    "threadIdx.x",
]

cuda_like = st.lists(st.sampled_from(CUDA_NAMES + PLAIN_WORDS + PUNCT + TRIVIA), max_size=60).map(
    "".join
)
plain_cpp = st.lists(
    st.sampled_from(PLAIN_WORDS + PUNCT + ["// c\n", "/* c */", '"s"']), max_size=60
).map("".join)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(cuda_like, st.sampled_from(["keep", "hip"]))
def test_translating_twice_equals_translating_once(src: str, launch: str) -> None:
    options = Options(launch_syntax=launch)
    once = translate_bytes(src.encode(), TABLE, options).data
    twice = translate_bytes(once, TABLE, options).data
    assert twice == once


@SETTINGS
@given(plain_cpp)
def test_cpp_without_cuda_is_unchanged(src: str) -> None:
    data = src.encode()
    result = translate_bytes(data, TABLE, Options())
    assert result.data == data


@SETTINGS
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_crash(data: bytes) -> None:
    result = translate_bytes(data, TABLE, Options(launch_syntax="hip"))
    assert isinstance(result.data, bytes)
    assert not any(d.message.startswith("internal error") for d in result.diagnostics)


@SETTINGS
@given(cuda_like)
def test_output_never_parses_worse(src: str) -> None:
    result = translate_bytes(src.encode(), TABLE, Options(launch_syntax="hip"))
    if result.changed:
        assert result.errors_after <= result.errors_before


# ---------------------------------------------------------------- issue 8: fuzzing
# Bounded here (a few seconds); fuzz/fuzz_engine.py runs the same checks at scale.

# code with structure: nested brackets, macros, launches, preprocessor branches,
# and the ways source goes wrong (unterminated comments, strings, #if)
_LEAVES = st.sampled_from(
    [
        "cudaMalloc(&p, n)",
        "cudaStream_t s",
        "k<<<g, b>>>(x)",
        "k<T, 4><<<g, b, 0, s>>>(x, y)",
        "__shfl_down_sync(0xffffffff, v, 16)",
        "__syncthreads()",
        "threadIdx.x % 32",
        "x",
        "1",
        '"cudaFree"',
        "/* unterminated",
        '"unterminated',
        "'\\",
        "#if X\n",
        "#endif\n",
        "\\\n",
        "\r\n",
        "\xe9",
        "\ufeff",
    ]
)


_WRAPPERS = (
    "({})",
    "{{ {}; }}",
    "[{}]",
    "f<{}>",
    "#define M(a) {}\n",
    "#ifdef __CUDA_ARCH__\n{}\n#else\n{}\n#endif\n",
    "__global__ void k() {{ {}; }}\n",
    "{}, {}",
)


@st.composite
def _nested(draw: st.DrawFn, depth: int = 0) -> str:
    if depth >= 6 or draw(st.integers(0, 3)) == 0:
        return draw(_LEAVES)
    shape = draw(st.sampled_from(_WRAPPERS))
    parts = [draw(_nested(depth + 1)) for _ in range(shape.count("{}"))]
    return shape.format(*parts)


nested = st.lists(_nested(), min_size=1, max_size=4).map("".join)
FUZZ = settings(max_examples=120, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


_COMMENT = re.compile(rb"/\*(?:(?!\*/).)*\*/", re.DOTALL)
_PUNCTUATION = bytes(range(256)).translate(
    None, b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t:,./"
)


def _shape(text: bytes) -> bytes:
    """The brackets, quotes, comment and directive marks of ``text``."""
    return bytes(c for c in text if c in _PUNCTUATION)


def token_neutral(result: FileResult) -> bool:
    """Every edit keeps the code's shape: it swaps names, numbers or header
    names for others (`CUB_STDERR` -> `HIPCUB_STDERR`, `0xffffffff` ->
    `0xffffffffffffffffULL`, `<cuda.h>` -> `<hip/hip_runtime.h>`), drops an
    argument, or inserts whole preprocessor lines or a comment.  Such an edit
    cannot change what the code is; but in input that already has parse errors
    tree-sitter's error recovery weighs the bytes it skips, so a longer name can
    make it recover differently (`CUB_STDERR'c'`: 1 error node,
    `HIPCUB_STDERR'c'`: 2).  The fuzz checks accept that, and only that, in
    input that was already broken."""
    for start, end, text, _rule in result.edits:
        old = result.original[start:end]
        if start == end and _whole_directive_lines(result.original, start, text):
            continue  # an inserted #include line between top-level items
        if start == end and _COMMENT.fullmatch(text.strip()):
            continue  # an --annotate comment
        if _shape(old) != _shape(text):
            return False
    return True


def _whole_directive_lines(data: bytes, at: int, text: bytes) -> bool:
    at_line_start = at == 0 or data[at - 1 : at] in (b"\n", b"\r")
    lines = text.splitlines()
    return at_line_start and text.endswith(b"\n") and all(x.startswith(b"#") for x in lines)


def _fuzz_options(flags: int) -> Options:
    from hipify_py.versions import parse_version

    return Options(
        launch_syntax="hip" if flags & 1 else "keep",
        hip_version=parse_version("5.7") if flags & 2 else None,
        rewrite_strings=bool(flags & 4),
        annotate=bool(flags & 8),
    )


@FUZZ
@given(st.one_of(nested, cuda_like), st.integers(0, 15))
def test_engine_invariants_on_structured_input(src: str, flags: int) -> None:
    """No crash, no internal error, the output re-parses with no more error
    nodes than the input, and a second translation changes nothing."""
    from hipify_py.engine import _errors_of

    data = src.encode("utf-8", "surrogatepass")
    options = _fuzz_options(flags)
    result = translate_bytes(data, TABLE, options)
    assert not any("internal error" in d.message for d in result.diagnostics)
    if result.changed:
        before, after = _errors_of(data), _errors_of(result.data)
        assert after <= before or (before and token_neutral(result)), (before, after)
    assert translate_bytes(result.data, TABLE, options).data == result.data


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(CUDA_NAMES), st.binary(max_size=300))
def test_bytes_around_a_cuda_name_survive(head: bytes, name: str, tail: bytes) -> None:
    """Whatever surrounds a translated name (latin-1, broken UTF-8, CR, NUL-free
    garbage) comes out byte for byte: only the edits' spans change."""
    data = (head + b"\n" + name.encode() + b"(x);\n" + tail).replace(b"\0", b" ")
    result = translate_bytes(data, TABLE, Options(insert_runtime_include=False))
    assert not any("internal error" in d.message for d in result.diagnostics)
    out = bytearray(data)
    for start, end, text, _rule in sorted(result.edits, reverse=True):
        out[start:end] = text
    assert bytes(out) == result.data
