"""Hypothesis properties of the engine (bounded, part of the normal run)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipify_py import Options, load_table, translate_bytes

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
