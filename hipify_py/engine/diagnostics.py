"""Diagnostics: what the engine could not (or chose not to) translate, and why.

Every diagnostic has a stable code, defined once as a ``Code`` (name, default
severity, summary and the text ``docs/diagnostics.md`` is generated from).  A
code that one rule reports is defined in that rule's module under
``hipify_py/rules/``; the codes here are the ones no single rule owns (see the
comments).  ``hipify_py.rules.catalogue`` assembles the full catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    severity: Severity
    summary: str
    why: str = ""
    example: str = ""
    fix: str = ""

    def at(self, message: str, line: int, column: int, **fields: Any) -> Diagnostic:
        """A diagnostic of this code (its severity and name) at ``line``:``column``."""
        return Diagnostic(self.code, self.severity, message, line, column, rule=self.name, **fields)


# The codes defined here, by code (the full catalogue: hipify_py.rules.catalogue).
SHARED: dict[str, Code] = {}


def _code(code: str, name: str, severity: Severity, summary: str, **text: str) -> Code:
    entry = Code(code, name, severity, summary, **text)
    assert code not in SHARED, code
    SHARED[code] = entry
    return entry


E, W, N = Severity.ERROR, Severity.WARNING, Severity.INFO  # N: note (info)

# Reported by the engine itself (engine/translate.py) and the runner
# (project/runner.py), about the file as a whole.
PARSE_REGRESSION = _code(
    "HPY001",
    "self-check-failed",
    E,
    "the translated file parses worse than the original, so the file was left unchanged",
    why="An edit produced text that tree-sitter cannot parse; writing it would break the build.",
    fix="Report the input as a bug; translate the affected lines by hand.",
    example="a file whose translation would not parse",
)
BINARY_FILE = _code(
    "HPY002",
    "not-source-text",
    W,
    "the file is not source text (binary, NUL bytes or UTF-16) and was skipped",
    fix="Exclude the file (--exclude) or convert it to UTF-8.",
    why="hipify-py rewrites text; it cannot tell code from data in a binary or UTF-16 file, so it "
    "does not touch it.",
    example="kernels.cu saved as UTF-16 by an editor",
)
PARSE_ERRORS = _code(
    "HPY003",
    "parse-errors",
    N,
    "the original file has syntax the parser could not read; nearby translations may be incomplete",
    why="tree-sitter recovers from errors, but names inside an unparsed region are renamed "
    "only when they clearly are code.",
    example="KERNEL_BEGIN(add, float* p) p[threadIdx.x] += 1; KERNEL_END",
    fix="Nothing to do when the translation is right; otherwise translate the lines near the "
    "reported position by hand.",
)
EDIT_CONFLICT = _code(
    "HPY004",
    "edit-conflict",
    W,
    "two edits overlapped; the later one was dropped",
    why="Two rules wanted to change the same text; applying both would corrupt it.",
    fix="Check the reported line by hand, and please report the input.",
    example="a macro argument that two rules both rewrite",
)
# Reported by `hipify-py check` (report/check.py, project/runner.py), not by a rule.
TRANSLATABLE_REFERENCE = _code(
    "HPY100",
    "translatable-cuda-reference",
    W,
    "a CUDA API use (name or header) that hipify-py translates; reported by `hipify-py check`",
    why="The code still depends on CUDA: it builds for AMD GPUs only once it is translated.",
    example="cudaMalloc(&ptr, bytes);",
    fix="Run hipify-py on the file (or the hipify-py pre-commit hook), or record the finding "
    "in a baseline (`hipify-py check --write-baseline`) while migrating gradually.",
)
# Reported by several rules (identifiers, includes, device_hazards).
NEEDS_NEWER_HIP = _code(
    "HPY103",
    "needs-newer-hip",
    E,
    "the HIP counterpart appeared after the target HIP version; left unchanged",
    why="Emitting it would fail to compile with the HIP version you target (--hip-version).",
    fix="Target a newer HIP (--hip-version) or avoid the API.  NVML is translated to AMD SMI "
    "from HIP 6.4 on; below it the hint names the ROCm SMI call for a port by hand.",
    example="hipGraphInstantiateWithParams with --hip-version 5.7",
)
# Reported by several rules (identifiers, includes).
ROC_FALLBACK = _code(
    "HPY108",
    "roc-library-incomplete",
    E,
    "with --roc, a CUDA name or header the ROC library (rocBLAS, rocSPARSE, rocSOLVER, rocRAND, "
    "MIOpen) lacks; left unchanged",
    why="--roc asks for the ROC libraries, and one file cannot mix them with the HIP library "
    "of the same family (a rocSOLVER handle passed to a hipSOLVER function does not compile), so "
    "the name is neither renamed to the HIP library's nor does the file quietly switch to it: "
    "each such use is reported where it is, and only names in code count (a comment or a "
    "string never changes the translation).",
    example="cusparseSpSMDescr_t d;  // no rocSPARSE name: left unchanged, reported",
    fix="Rewrite the use with the ROC library's own API, or keep this code on the HIP library "
    "(hipSPARSE, hipSOLVER, ...): translate the file without --roc (the hint names the HIP "
    "name and header).",
)
# Reported by several rules (identifiers, half2_minmax).
SIGNATURE_CAUTION = _code(
    "HPY109",
    "hip-signature-differs",
    W,
    "translated, but the HIP function's signature (with --roc: the ROC library's) differs from "
    "CUDA's in a way a rename cannot fix (the message says how)",
    why="The call compiles against CUDA's declaration and not against HIP's, or compiles and "
    "means something else: an argument's type or size differs (size_t* where CUDA takes int*), "
    "the HIP handle type is a void* where CUDA's is an integer, or the function takes other "
    "arguments (rocsparse_spmv runs in stages) and no mechanical rewrite keeps the meaning.  "
    "Differences that one does are rewritten instead (hipGetProcAddress's HIP version, "
    "rocsparse_scsrmv's optional info).",
    example="cusparseScsr2gebsr_bufferSize(h, ..., &size)  // int in CUDA, size_t in hipSPARSE",
    fix="Change the argument as the hint says; the rest of the call is translated.",
)
# Reported by the includes rule and the runner (project/runner.py).
RUNTIME_INCLUDE_ADDED = _code(
    "HPY202",
    "runtime-include-added",
    N,
    "inserted #include <hip/hip_runtime.h> (nvcc includes the CUDA runtime implicitly, hipcc for "
    "host compilers does not)",
    why="nvcc includes the CUDA runtime header in every .cu file by itself; hipcc does not, so "
    "a file that uses kernels, threadIdx or runtime calls without an include fails to compile.",
    example="__global__ void k(float* p) { p[threadIdx.x] = 0; }  // no #include",
    fix="Nothing: the include is what HIP needs (--no-runtime-include leaves it out).",
)
# Reported by the project layer (project/build_files.py) on build files.
BUILD_CMAKE_LANGUAGE = _code(
    "HPY601",
    "cmake-cuda-language",
    W,
    "a CMake line that enables or configures the CUDA language",
    why="CMake compiles HIP sources with its HIP language (CMake >= 3.21); CUDA settings and "
    "NVIDIA architectures do nothing for gfx942.",
    example="enable_language(CUDA)",
    fix="The HIP equivalent in the message; --fix-build rewrites the simple cases.",
)
BUILD_CMAKE_PACKAGE = _code(
    "HPY602",
    "cmake-cuda-package",
    W,
    "a CMake line that finds or links CUDA packages (CUDAToolkit, CUDA::cudart, FindCUDA)",
    why="ROCm's CMake packages are hip, hipblas, hipfft, hiprand, ... with their own targets.",
    example="target_link_libraries(app PRIVATE CUDA::cublas)",
    fix="find_package(hip) and the hip::/roc:: targets; --fix-build rewrites the simple cases.",
)
BUILD_MAKE_NVCC = _code(
    "HPY603",
    "makefile-nvcc",
    W,
    "a Makefile line that calls nvcc or passes nvcc-only flags or CUDA paths",
    why="hipcc takes clang flags: --offload-arch=gfx942 instead of -arch=sm_XX, no -Xcompiler.",
    example="NVCC_FLAGS = -arch=sm_80 --use_fast_math",
    fix="hipcc with --offload-arch=gfx942; --fix-build rewrites the simple cases.",
)

# The clang engine (--engine clang, hipify_py/semantic): what libclang saw.
# Reported through the clang engine's notes, which the engine turns into
# diagnostics by code (engine/semantic_facts.py), not by a rule.
CLANG_FALLBACK = _code(
    "HPY701",
    "clang-engine-fallback",
    W,
    "the clang engine could not compile this file; the default engine translated it",
    why="libclang reported errors (a missing header, a flag the build passes and the run did "
    "not), so its answers about this file cannot be trusted; the file is still translated, by "
    "the header-free default engine, which is what the message's reason affected.",
    example="fatal error: 'config.h' file not found (the build adds -Ibuild/include)",
    fix="Pass the flags the file is built with: -p BUILD_DIR (compile_commands.json), or "
    "-I / -D / --std, and --cuda-path for the CUDA headers.",
)
MACRO_USE_EXPANDS_TO_CUDA = _code(
    "HPY702",
    "macro-use-expands-to-cuda",
    N,
    "a use of a project macro that expands to CUDA API (reported where it is used)",
    why="The CUDA call is hidden behind the macro; it is translated in the macro's definition, "
    "so this use becomes HIP once the file (or header) defining the macro is translated.",
    example="CUDA_CHECK(x);  // #define CUDA_CHECK(x) ... cudaGetErrorString(e) ...",
    fix="Nothing, when the definition is translated too (the message says where it is).",
)
MACRO_DEFINITION_CUDA = _code(
    "HPY703",
    "macro-definition-expands-to-cuda",
    N,
    "a project macro whose expansions produce CUDA API uses; its definition is translated",
    why="Every use of the macro depends on this definition: the message lists the CUDA names "
    "it produced and how many uses the file has.",
    example="#define ALLOC(p, n) cudaMalloc((void**)&p, n)",
    fix="Nothing: the definition is translated like any other code.",
)
PASTED_PREFIX_REWRITTEN = _code(
    "HPY704",
    "pasted-prefix-rewritten",
    N,
    "a macro makes CUDA API names by token pasting (cuda##Name); the pasted prefix was rewritten",
    why="No text spells out the names the macro makes, so only the compiler sees them; every "
    "name made there has a HIP counterpart with the same suffix, so rewriting the prefix "
    "(cuda## -> hip##) translates them all.",
    example="#define CALL(fn, ...) cuda##fn(__VA_ARGS__)",
    fix="Nothing; check the HIP names the message lists exist for your target.",
)
INACTIVE_BRANCH = _code(
    "HPY705",
    "branch-not-compiled",
    N,
    "preprocessor branch lines that neither the host nor the device side compiled with these "
    "flags; translated textually",
    why="The clang engine answers only for code the compiler saw; inside these lines the "
    "default engine's textual translation applies (as hipify-clang translates them too).",
    example="#if CUDART_VERSION < 11000 ... #endif",
    fix="Check those lines by hand, or pass the -D flags (or -p BUILD_DIR) that enable them.",
)
PASTED_NAMES_UNTRANSLATED = _code(
    "HPY706",
    "pasted-names-untranslated",
    W,
    "a macro makes CUDA API names by token pasting that no single prefix rewrite translates",
    why="The names it makes map to HIP names with different prefixes, lack a HIP counterpart, "
    "or need a newer HIP than the target; the macro still produces CUDA names after "
    "translation.",
    example="#define CU(fn) cu##fn  // CU(blasCreate) and CU(daMalloc)",
    fix="Spell the names out in the macro's uses, or translate the macro by hand.",
)
SHADOWED_CUDA_NAME = _code(
    "HPY707",
    "user-name-shadows-cuda",
    N,
    "a name spelled like a CUDA API is the project's own declaration here; left unchanged",
    why="A function, type, variable or namespace member of the project has a CUDA API's name; "
    "renaming its uses (as text alone would) would point them at the HIP API instead.",
    example="struct Pool { void* cudaMalloc(size_t n); void* get() { return cudaMalloc(16); } };",
    fix="Nothing; consider renaming the declaration to avoid the confusion.",
)


@dataclass(frozen=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    line: int
    column: int
    offset: int = 0
    end_offset: int = 0
    hint: str = ""
    name: str = ""  # the CUDA name or header concerned, when there is one
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    # the code's name (Code.name; Code.at fills it): the engine cannot look it
    # up by code, as most codes live in the rule modules above it
    rule: str = field(default="", compare=False)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "code": self.code,
            "rule": self.rule or self.code,
            "severity": self.severity.value,
            "message": self.message,
            "line": self.line,
            "column": self.column,
        }
        if self.hint:
            data["hint"] = self.hint
        if self.name:
            data["name"] = self.name
        return data
