"""Kernel launches: ``k<<<g, b[, shmem[, stream]]>>>(args)``.

hipcc accepts the triple-chevron syntax, so by default launches are kept.
With ``--launch-syntax hip`` they become
``hipLaunchKernelGGL(k, dim3(g), dim3(b), shmem, stream, args)``.

The rewrite edits only the punctuation around the kernel name, the launch
configuration and the argument list, never the text of the expressions
themselves, so renames inside them (and comments, and line breaks of a
multi-line argument list) survive and cannot overlap with it.  Launches inside
``#define`` bodies are found by parsing the body on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.options import Options
from hipify_py.engine.parse import captures, parse
from hipify_py.rules.rule import Example, Rule
from hipify_py.tables.table import MappingTable

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
LAUNCH_NOT_REWRITTEN = D.Code(
    "HPY301",
    "launch-not-rewritten",
    D.Severity.WARNING,
    "a <<<...>>> launch could not be rewritten to hipLaunchKernelGGL; it was kept as is",
    why="hipcc accepts the triple-chevron syntax, so the code still builds with hipcc.",
    example="LAUNCH_MACRO(kernel)<<<grid, block>>>(args);",
    fix="Nothing: hipcc compiles <<<...>>>; rewrite it to hipLaunchKernelGGL by hand if you need "
    "that form.",
)
DEVICE_SIDE_RUNTIME = D.Code(
    "HPY302",
    "device-side-runtime",
    D.Severity.ERROR,
    "a kernel launch or runtime API call in device code (CUDA dynamic parallelism)",
    why="CUDA's device runtime lets a kernel launch kernels and call cudaMalloc, "
    "cudaStreamCreate or cudaDeviceSynchronize; HIP has no device-side runtime, so hipcc "
    "rejects these as calls to host functions. Reported at each launch or runtime call in a "
    "__global__, __device__ or __host__ __device__ function or device lambda, and at each use "
    "there of a macro of the file whose body launches or calls the runtime; the host half of "
    "a __host__ __device__ function (#ifndef __CUDA_ARCH__, or the #else of #ifdef "
    "__CUDA_ARCH__) is host code and is not reported.",
    example="__global__ void parent() { child<<<1, 32>>>(); cudaDeviceSynchronize(); }\n"
    "#define SYNC() cudaDeviceSynchronize()\n__device__ void wait() { SYNC(); }",
    fix="Move the launch or call to the host, before or after the kernel; device code may use "
    "malloc/free for allocation.",
)

_LAUNCHES = "(call_expression (kernel_call_syntax) @config) @call"
_WRAP_PREFIX = "void __hipify_py_macro_body__() {\n"
_WRAP_SUFFIX = "\n;}\n"


@dataclass
class _Site:
    """A launch found in some text; offsets are relative to that text."""

    call: tree_sitter.Node
    config: tree_sitter.Node
    base: int  # add to node offsets to get offsets in the file
    text: str  # the text the nodes index (file text, or a wrapped macro body)
    in_macro: bool


def may_apply(present: set[str], text: str, table: MappingTable) -> bool:
    return "<<<" in text


def run(ctx: Context) -> None:
    sites: list[_Site] = []
    bodies: dict[int, tree_sitter.Node] = {}
    text = ctx.text
    pos = text.find("<<<")
    while pos != -1:
        node = ctx.root.descendant_for_byte_range(pos, pos + 3)
        if node is not None:
            parent = node.parent
            if node.type == "<<<" and parent is not None and parent.type == "kernel_call_syntax":
                call = parent.parent
                if call is not None and call.type == "call_expression":
                    sites.append(_Site(call, parent, 0, text, False))
            elif node.type == "preproc_arg":
                bodies[node.start_byte] = node
        pos = text.find("<<<", pos + 3)
    if sites or bodies:
        ctx.uses_kernel_syntax = True
    _report_device_side(ctx, sites)
    if ctx.options.launch_syntax != "hip":
        return
    for body in bodies.values():
        sites.extend(_macro_sites(ctx, body))
    for site in sites:
        _rewrite(ctx, site)


def _report_device_side(ctx: Context, sites: list[_Site]) -> None:
    """Dynamic parallelism: launches, and runtime API calls (cudaMalloc,
    cudaStreamCreate, cudaDeviceSynchronize ...), in device code, and uses
    there of this file's macros whose bodies launch or call the runtime.  HIP
    has no device-side runtime: hipcc rejects them as calls to host
    functions.  The host half of a ``__host__ __device__`` function (under
    ``#ifndef __CUDA_ARCH__``) is host code."""
    from hipify_py.rules.device_code import device_bodies, host_pass_only, in_device_code

    # __host__ __device__ functions too: hipcc 7.2 rejects a host call there
    # ("reference to __host__ function in __host__ __device__ function")
    if not device_bodies(ctx):
        return

    def on_device(offset: int) -> bool:
        return in_device_code(ctx, offset) and not host_pass_only(ctx, offset)

    for site in sites:
        if on_device(site.call.start_byte):
            kernel = site.call.child_by_field_name("function")
            name = ctx.node_text(kernel) if kernel is not None else "kernel"
            ctx.report(
                DEVICE_SIDE_RUNTIME,
                site.call.start_byte,
                f"{name}<<<...>>> launched from device code (CUDA dynamic parallelism): HIP "
                "cannot launch kernels from the GPU",
                hint="launch it from the host after this kernel ends (or fold its work into "
                "this kernel, e.g. a loop over the child grid)",
                name=name,
                end=site.config.end_byte,
            )
    names = ctx.table.names
    runtime_calls: list[tuple[int, str]] = []
    for offset, cuda, _, library in ctx.references:
        row = names.get(cuda)
        if row is not None and library in ("runtime", "driver") and row.kind == "function":
            runtime_calls.append((offset, cuda))
    for offset, cuda in runtime_calls:
        if not on_device(offset):
            continue
        ctx.report(
            DEVICE_SIDE_RUNTIME,
            offset,
            f"{cuda} called from device code (CUDA's device runtime): HIP's runtime API is "
            "host-only, so hipcc rejects the call",
            hint="do it on the host before or after the kernel (allocate up front, synchronize "
            "on the host); device code may use malloc/free",
            name=cuda,
            end=offset + len(cuda),
        )
    for macro, what, offset in _host_macro_uses(ctx, runtime_calls):
        if not on_device(offset):
            continue
        ctx.report(
            DEVICE_SIDE_RUNTIME,
            offset,
            f"{macro} is used in device code and its body {what} (CUDA's device runtime): "
            "HIP cannot launch kernels or call its runtime API from the GPU",
            hint="do it on the host before or after the kernel, or give the macro a device "
            "form without the launch or runtime call",
            name=macro,
            end=offset + len(macro),
        )


def _host_macro_uses(
    ctx: Context, runtime_calls: list[tuple[int, str]]
) -> list[tuple[str, str, int]]:
    """(macro, what its body does, where it is used) for each use, outside
    #define bodies, of a macro of this file whose body launches a kernel or
    calls the runtime (directly or through another such macro)."""
    from hipify_py.engine.words import occurrences
    from hipify_py.rules.device_code import host_pass_only, macro_at, macro_definitions

    # (a definition under #ifndef __CUDA_ARCH__ is the host pass's: the
    # device pass expands another one)
    macros = [m for m in macro_definitions(ctx) if not host_pass_only(ctx, m.start_byte)]
    if not macros:
        return []
    does: dict[str, str] = {}
    bodies: list[tuple[str, tree_sitter.Node]] = []
    for macro in macros:
        named = macro.child_by_field_name("name")
        value = macro.child_by_field_name("value")
        if named is None or value is None:
            continue
        bodies.append((ctx.node_text(named), value))
    for name, value in bodies:
        if "<<<" in ctx.node_text(value):
            does.setdefault(name, "launches a kernel")
        for offset, cuda in runtime_calls:
            if value.start_byte <= offset < value.end_byte:
                does.setdefault(name, f"calls {cuda}")
                break
    changed = bool(does)
    while changed:  # through macros that use such macros
        changed = False
        for name, value in bodies:
            if name in does:
                continue
            inner = next(
                (m for m in does if occurrences(ctx.node_text(value), m)),
                None,
            )
            if inner is not None:
                does[name] = f"uses {inner}, which {does[inner]}"
                changed = True
    uses: list[tuple[str, str, int]] = []
    for name in sorted(does):
        for offset in occurrences(ctx.text, name):
            if macro_at(ctx, offset) is not None:
                continue  # another macro's body: its uses are what count
            node = ctx.root.descendant_for_byte_range(offset, offset + len(name))
            if node is None or node.type != "identifier":
                continue  # the #define's own name, a comment, a string
            uses.append((name, does[name], offset))
    return uses


def _config(call: tree_sitter.Node) -> tree_sitter.Node:
    for child in call.children:
        if child.type == "kernel_call_syntax":
            return child
    raise AssertionError("query guarantees a kernel_call_syntax child")


def _macro_sites(ctx: Context, body: tree_sitter.Node) -> list[_Site]:
    """Launches in a #define body, found by parsing the body as a statement."""
    parent = body.parent
    if parent is None or parent.type not in ("preproc_def", "preproc_function_def"):
        return []
    wrapped = _WRAP_PREFIX + ctx.node_text(body) + _WRAP_SUFFIX
    tree = parse(wrapped.encode("latin-1"))
    base = body.start_byte - len(_WRAP_PREFIX)
    return [
        _Site(call, _config(call), base, wrapped, True)
        for call in captures(_LAUNCHES, tree.root_node).get("call", [])
        if not call.has_error
    ]


def _is_statement(site: _Site) -> bool:
    parent = site.call.parent
    if parent is None:
        return False
    if parent.type == "expression_statement":
        return True
    # in a macro body the trailing ';' usually comes from the macro's user
    return site.in_macro and parent.type in ("compound_statement", "ERROR")


def _rewrite(ctx: Context, site: _Site) -> None:
    call, config = site.call, site.config
    text = site.text

    def src(node: tree_sitter.Node) -> str:
        return text[node.start_byte : node.end_byte]

    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    parts = [c for c in config.children if c.is_named]
    commas = [c for c in config.children if c.type == ","]
    where = site.base + call.start_byte
    if function is None or arguments is None or not 2 <= len(parts) <= 4:
        ctx.report(
            LAUNCH_NOT_REWRITTEN,
            where,
            f"launch configuration has {len(parts)} parameters (expected 2 to 4); "
            "kept as <<<...>>>",
        )
        return
    if len(commas) != len(parts) - 1 or config.has_error:
        # fuzz finding: parts the parser recovered without commas between them
        ctx.report(
            LAUNCH_NOT_REWRITTEN,
            where,
            "the launch configuration could not be parsed; kept as <<<...>>>",
        )
        return
    if not _is_statement(site):
        ctx.report(
            LAUNCH_NOT_REWRITTEN,
            where,
            "launch used as an expression, not a statement; hipLaunchKernelGGL is a statement, "
            "so the launch was kept as <<<...>>>",
        )
        return
    b = site.base
    template = "<" in src(function)
    open_token, close_token = config.children[0], config.children[-1]
    wrap_grid, wrap_block = (_needs_dim3(p) for p in parts[:2])
    args_open = arguments.children[0]
    has_args = any(c.type not in ("(", ")") for c in arguments.children)

    group = ctx.new_group()

    def add(start: int, end: int, new: str) -> None:
        ctx.edit(b + start, b + end, new, "launch", group=group)

    # NAME<<<G, B[, S[, T]]>>>(ARGS)
    #  -> hipLaunchKernelGGL(NAME, dim3(G), dim3(B), S|0, T|0[, ARGS])
    add(
        function.start_byte,
        function.start_byte,
        "hipLaunchKernelGGL(" + ("HIP_KERNEL_NAME(" if template else ""),
    )
    add(
        function.end_byte,
        open_token.end_byte,
        (")" if template else "") + ", " + ("dim3(" if wrap_grid else ""),
    )
    add(commas[0].start_byte, commas[0].end_byte, (")" if wrap_grid else "") + ",")
    if wrap_block:
        add(parts[1].start_byte, parts[1].start_byte, "dim3(")
        add(parts[1].end_byte, parts[1].end_byte, ")")
    defaults = {2: ", 0, 0", 3: ", 0", 4: ""}[len(parts)]
    add(close_token.start_byte, args_open.end_byte, defaults + (", " if has_args else ""))


def _needs_dim3(node: tree_sitter.Node) -> bool:
    """``dim3(...)`` already is one; anything else is wrapped (dim3 has a copy constructor)."""
    if node.type in ("call_expression", "compound_literal_expression"):
        function = node.child_by_field_name("function") or node.child_by_field_name("type")
        if function is not None and function.text == b"dim3":
            return False
    return True


RULE = Rule(
    id="launch",
    run=run,
    codes=(
        DEVICE_SIDE_RUNTIME.code,
        LAUNCH_NOT_REWRITTEN.code,
    ),
    needs=(
        "table.names",
        "options",
        "context.references",
    ),
    may_apply=may_apply,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "__global__ void k(int n);\n"
                "void f() { k<<<1, 2>>>(3); }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "__global__ void k(int n);\n"
                "void f() { hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, 0, 3); }\n"
            ),
            frozenset(),
            Options(launch_syntax="hip"),
        ),
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "__global__ void child();\n"
                "__global__ void parent() { child<<<1, 1>>>(); }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "__global__ void child();\n"
                "__global__ void parent() { child<<<1, 1>>>(); }\n"
            ),
            frozenset({"HPY302"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "__global__ void k(int n);\n"
            "void f() { k<<<1, 2>>>(3); }\n"
        ),
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "#define SYNC() cudaDeviceSynchronize()\n"
                "__device__ void wait() { SYNC(); }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "#define SYNC() hipDeviceSynchronize()\n"
                "__device__ void wait() { SYNC(); }\n"
            ),
            frozenset({"HPY302"}),
        ),
    ),
)
