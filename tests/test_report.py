"""`hipify-py report`: the migration report, from real translations of small CUDA
trees, in Markdown, JSON and HTML (the HTML also rendered by headless Chromium)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, run_cli

from hipify_py.api import translate_paths
from hipify_py.engine.options import Options
from hipify_py.report import document
from hipify_py.report.document import (
    BulletList,
    Cards,
    Column,
    Details,
    Document,
    Heading,
    Paragraph,
    Table,
    code,
    lit,
    md_code,
    md_text,
    plain,
    prose,
    words,
)
from hipify_py.report.migration import (
    EFFORT_MODEL,
    Report,
    build_report,
    effort_model_markdown,
    render_html,
    render_markdown,
)
from hipify_py.tables.cache import load_table

# A small CUDA project: three files share unsupported runtime APIs in different
# numbers, one header has inline PTX and warp-size hazards, one file includes
# a header HIP lacks, one has no CUDA at all.
PROJECT = {
    "memory.cu": """\
#include <cuda_runtime.h>

void copy_in(float* host, size_t n, cudaStream_t stream, int attr, void* value) {
  float* dev = nullptr;
  cudaMalloc(&dev, n * sizeof(float));
  cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaStreamGetCaptureInfo_v3(stream, attr, value);
  cudaFree(dev);
}
""",
    "launch.cu": """\
#include <cuda_runtime.h>

void launch_all(cudaStream_t stream, void* config, const void* fn, void** args, int attr) {
  cudaStreamGetCaptureInfo_v3(stream, attr, args);
  cudaGetDriverEntryPointByVersion(config, fn, args);
  cudaGetDriverEntryPointByVersion(config, fn, args);
  cudaGetDriverEntryPointByVersion(config, fn, args);
  int clusters = 0;
  cudaOccupancyMaxActiveClusters(&clusters, fn, config);
}
""",
    "occupancy.cu": """\
#include <cuda.h>
#include <cuda_runtime.h>

int plan(cudaStream_t stream, void* config, const void* fn, CUfunction f, int attr) {
  cudaStreamGetCaptureInfo_v3(stream, attr, config);
  int clusters = 0, grid = 0, block = 0;
  cudaOccupancyMaxActiveClusters(&clusters, fn, config);
  cuOccupancyMaxPotentialBlockSize(&grid, &block, f, nullptr, 0, 0);
  return clusters + grid + block;
}
""",
    "kernels.cuh": """\
#pragma once

__device__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ unsigned warp_id() {
  unsigned id;
  asm("mov.u32 %0, %%warpid;" : "=r"(id));
  return id;
}

__global__ void lane_sum(const float* in, float* out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) out[blockIdx.x] = v;
}
""",
    "wmma.cu": """\
#include <mma.h>
#include <cuda_fp16.h>

__global__ void tile(const __half* a, float* c) {
  c[threadIdx.x] = __half2float(a[threadIdx.x]);
}
""",
    "host.cpp": """\
#include <cstdio>
int main() { std::puts("no CUDA here"); return 0; }
""",
}


def make_tree(root: Path, files: dict[str, str]) -> Path:
    src = root / "src"
    src.mkdir(parents=True)
    for name, text in files.items():
        (src / name).write_text(text)
    return src


def report_of(src: Path, options: Options | None = None) -> Report:
    # HIP 6.3: the _sync warp functions need the opt-in macro there (HPY405)
    options = options or Options.from_kwargs(hip_version="6.3")
    run = translate_paths([src], mode="check", references=True, jobs=1, options=options)
    return build_report(run.reports(), load_table(), hip_version="6.3", inputs=[str(src)])


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tree(tmp_path_factory.mktemp("report"), PROJECT)


@pytest.fixture(scope="module")
def report(project: Path) -> Report:
    return report_of(project)


def by_name(report: Report) -> dict[str, object]:
    return {Path(f.path).name: f for f in report.files}


def test_converted_and_unconverted_by_file_and_library(report: Report) -> None:
    files = {Path(f.path).name: (f.converted, f.unconverted) for f in report.files}
    assert files == {
        # header, cudaStream_t, cudaMalloc, cudaMemcpy, cudaMemcpyHostToDevice, cudaFree
        "memory.cu": (6, 1),
        "launch.cu": (2, 5),  # header, cudaStream_t / GetAttribute, 3 x ExC, MaxActiveClusters
        "occupancy.cu": (4, 3),  # 2 headers, cudaStream_t, CUfunction / 3 unsupported
        "kernels.cuh": (1, 2),  # __shfl_down_sync / two asm statements
        "wmma.cu": (3, 1),  # <cuda_fp16.h>, __half, __half2float / <mma.h>
        "host.cpp": (0, 0),
    }
    assert (report.converted, report.unconverted) == (16, 12)
    assert report.automatic_percent == round(100 * 16 / 28, 1)
    libraries = {
        lib.library: (lib.converted, lib.unconverted, lib.files) for lib in report.libraries
    }
    assert libraries == {"device": (4, 3, 2), "driver": (2, 1, 1), "runtime": (10, 8, 3)}
    totals = report.totals()
    assert totals["files"] == 6
    assert totals["files_with_cuda"] == 5
    assert totals["files_automatic"] == 0  # every CUDA file has an error-level finding
    assert totals["files_blocked"] == 5
    memory = next(f for f in report.files if f.path.endswith("memory.cu"))
    assert memory.lines_manual == 1  # the cudaStreamGetCaptureInfo_v3 line
    # distinct lines with a converted reference: 1 (include), 3 (cudaStream_t), 5, 6, 8
    assert memory.lines_automatic == 5
    assert memory.lines_automatic + memory.lines_manual <= memory.lines_total


def test_unsupported_apis_ranked_by_files_blocked_then_uses(report: Report) -> None:
    ranking = [(b.name, len(b.files), b.uses) for b in report.blockers]
    assert ranking == [
        ("cudaStreamGetCaptureInfo_v3", 3, 3),
        ("cudaOccupancyMaxActiveClusters", 2, 2),
        ("cudaGetDriverEntryPointByVersion", 1, 3),
        ("<mma.h>", 1, 1),
        ("cuOccupancyMaxPotentialBlockSize", 1, 1),
    ]
    blockers = {b.name: b for b in report.blockers}
    table = load_table()
    # the hint comes from the mapping table's row
    assert blockers["cuOccupancyMaxPotentialBlockSize"].hint == (
        table.names["cuOccupancyMaxPotentialBlockSize"].hint
    )
    assert blockers["<mma.h>"].hint == table.headers["mma.h"].hint
    assert blockers["<mma.h>"].reason == "unsupported-header"
    assert blockers["cudaGetDriverEntryPointByVersion"].library == "runtime"
    assert blockers["cudaGetDriverEntryPointByVersion"].kind == "function"
    assert sorted(Path(p).name for p in blockers["cudaStreamGetCaptureInfo_v3"].files) == [
        "launch.cu",
        "memory.cu",
        "occupancy.cu",
    ]
    wmma = next(f for f in report.files if f.path.endswith("wmma.cu"))
    assert wmma.blockers == ["<mma.h>"]


def test_inline_ptx_sites_with_their_text(report: Report) -> None:
    sites = [(Path(s.path).name, s.line, s.text) for s in report.ptx]
    assert sites == [
        ("kernels.cuh", 5, "mov.u32 %0, %%laneid"),
        ("kernels.cuh", 11, "mov.u32 %0, %%warpid"),
    ]


def test_hazards_grouped_by_code(report: Report) -> None:
    counts = {g.code: (len(g.sites), g.files, g.severity) for g in report.hazards}
    assert counts == {
        "HPY501": (2, 1, "error"),
        "HPY420": (1, 1, "warning"),
        "HPY421": (1, 1, "warning"),
        "HPY405": (1, 1, "info"),
    }
    assert [g.code for g in report.hazards] == ["HPY501", "HPY420", "HPY421", "HPY405"]
    lane = next(g for g in report.hazards if g.code == "HPY420")
    assert lane.rule == "lane-math-32"
    assert lane.sites[0].line == 16 and "threadIdx.x % 32" in lane.sites[0].text
    assert report.totals()["hazards"] == 5


def test_effort_model_for_one_unsupported_call(tmp_path: Path) -> None:
    src = make_tree(
        tmp_path,
        {
            "one.cu": "#include <cuda_runtime.h>\n"
            "void f(void* c, const void* fn, void** a) { cudaGetDriverEntryPointByVersion(c, fn, a); }\n"
        },
    )
    effort = report_of(src).effort
    costs = {c.key: c for c in EFFORT_MODEL}
    expected = [costs["file-review"], costs["api-replacement"], costs["HPY101:function"]]
    assert [(i.cost.key, i.count) for i in effort.items] == [(c.key, 1) for c in expected]
    assert effort.low_minutes == sum(c.low for c in expected) == 45
    assert effort.high_minutes == sum(c.high for c in expected) == 165
    assert (effort.low_hours, effort.high_hours) == (0.8, 2.8)


def test_effort_adds_up(report: Report) -> None:
    items = {i.cost.key: i.count for i in report.effort.items}
    assert items == {
        "file-review": 5,
        "api-replacement": 4,  # four distinct unsupported APIs (the header is costed apart)
        "HPY101:function": 9,
        "HPY201": 1,
        "HPY501": 2,
        "HPY420": 1,
        "HPY421": 1,
    }
    assert report.effort.low_minutes == sum(f.effort.low for f in report.files)
    assert report.effort.high_minutes == sum(f.effort.high for f in report.files)
    assert 0 < report.effort.low_minutes < report.effort.high_minutes


def test_a_tree_without_cuda_reports_nothing_to_do(tmp_path: Path) -> None:
    src = make_tree(tmp_path, {"host.cpp": PROJECT["host.cpp"]})
    report = report_of(src)
    assert report.automatic_percent is None
    assert report.blockers == [] and report.ptx == [] and report.effort.items == []
    html = render_html(report)
    assert '<svg id="coverage-chart"' in html and "no CUDA references found" in html
    assert "No CUDA references found." in render_markdown(report)


def test_hip_version_makes_newer_apis_unconverted(tmp_path: Path) -> None:
    table = load_table()
    newer = next(
        name
        for name, row in sorted(table.names.items())
        if row.library == "runtime"
        and row.kind == "function"
        and row.hip
        and row.hip_added.startswith("6.")
    )
    src = make_tree(tmp_path, {"new.cu": f"void f() {{ {newer}(0); }}\n"})
    report = report_of(src, options=Options.from_kwargs(hip_version="5.7"))
    (blocker,) = report.blockers
    assert (blocker.name, blocker.reason, blocker.code) == (newer, "needs-newer-hip", "HPY103")


# --------------------------------------------------------------------------- the command


def test_markdown_is_the_default(project: Path) -> None:
    result = run_cli("report", str(project), "-j", "1")
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    assert text.startswith("# hipify-py migration report\n")
    for heading in (
        "## Summary",
        "## Coverage by library",
        "## Unsupported APIs, by files blocked",
        "## Hazards to review",
        "## Inline PTX sites",
        "## Files",
        "## Effort estimate",
    ):
        assert f"\n{heading}\n" in text, heading
    ranked = [
        line for line in text.splitlines() if line.startswith("| 1 |") or line.startswith("| 2 |")
    ]
    assert ranked[0].startswith(
        "| 1 | `cudaStreamGetCaptureInfo_v3` | runtime | unsupported | 3 | 3 |"
    )
    assert ranked[1].startswith("| 2 | `cudaOccupancyMaxActiveClusters` |")
    ptx = [line for line in text.splitlines() if "%%laneid" in line]
    assert len(ptx) == 1 and ptx[0].endswith("kernels.cuh:5:3` | `mov.u32 %0, %%laneid` |")
    assert "| references converted | 16 |" in text
    assert "| references left unconverted | 12 |" in text


# the report's top-level JSON keys, in order (docs/report.md describes each)
JSON_KEYS = (
    "schema",
    "tool",
    "target",
    "inputs",
    "totals",
    "libraries",
    "files",
    "blockers",
    "unknown_names",
    "hazards",
    "ptx",
    "other_diagnostics",
    "apis",
    "effort",
    "problems",
)


def test_json_keys_and_numbers(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = run_cli("report", str(project), "--format", "json", "--output", str(out), "-j", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout == b""
    data = json.loads(out.read_text())
    assert list(data) == list(JSON_KEYS)
    assert data["schema"] == 1
    totals = data["totals"]
    assert (totals["converted"], totals["unconverted"]) == (16, 12)
    assert totals["ptx_sites"] == 2 and totals["unsupported_apis"] == 5
    assert [b["name"] for b in data["blockers"]][:3] == [
        "cudaStreamGetCaptureInfo_v3",
        "cudaOccupancyMaxActiveClusters",
        "cudaGetDriverEntryPointByVersion",
    ]
    first = data["blockers"][0]
    assert set(first) == {
        "name",
        "library",
        "kind",
        "reason",
        "code",
        "files",
        "uses",
        "hint",
        "file_list",
        "sites",
    }
    assert set(first["sites"][0]) == {"path", "line", "column", "text"}
    assert set(data["files"][0]) == {
        "path",
        "status",
        "converted",
        "unconverted",
        "automatic_percent",
        "lines",
        "errors",
        "warnings",
        "hazards",
        "ptx_sites",
        "blockers",
        "effort_minutes",
        "problem",
    }
    assert [p["text"] for p in data["ptx"]] == ["mov.u32 %0, %%laneid", "mov.u32 %0, %%warpid"]
    assert {h["code"]: h["count"] for h in data["hazards"]}["HPY501"] == 2
    effort = data["effort"]
    assert effort["hours"]["low"] <= effort["hours"]["high"]
    assert sum(i["minutes"]["low"] for i in effort["items"]) == effort["minutes"]["low"]
    # the source files are untouched: the report runs in check mode
    assert (project / "memory.cu").read_text() == PROJECT["memory.cu"]


def test_paths_from_the_configuration(project: Path, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    shutil.copytree(project, root / "src")
    (root / "pyproject.toml").write_text(
        '[tool.hipify-py]\npaths = ["src"]\nexclude = ["kernels.cuh"]\n'
    )
    result = run_cli("report", "--format", "json", "-j", "1", cwd=root)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert "kernels.cuh" not in {Path(f["path"]).name for f in data["files"]}
    assert data["ptx"] == []


def test_usage_and_io_errors_exit_2(project: Path, tmp_path: Path) -> None:
    missing = run_cli("report", str(tmp_path / "nope"), cwd=tmp_path)
    assert missing.returncode == 2
    assert b"nope" in missing.stderr
    assert run_cli("report", cwd=tmp_path).returncode == 2  # no paths, no configuration
    assert run_cli("report", str(project), "--format", "pdf").returncode == 2
    assert run_cli("report", str(project), "--hip-version", "six").returncode == 2
    unwritable = run_cli("report", str(project), "-o", str(tmp_path / "no" / "dir" / "r.md"))
    assert unwritable.returncode == 2 and b"cannot write" in unwritable.stderr


def test_setup_errors_name_the_report_command(tmp_path: Path) -> None:
    empty = run_cli("report", cwd=tmp_path)
    assert empty.returncode == 2 and empty.stdout == b""
    assert empty.stderr.decode().startswith(
        "hipify-py report: error: no paths given (try: hipify-py report src/, "
    )
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-py]\nhip-version = "six"\n')
    (tmp_path / "a.cu").write_text("void f() { cudaDeviceSynchronize(); }\n")
    bad = run_cli("report", "a.cu", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stdout == b""
    assert bad.stderr.decode().startswith("hipify-py report: error: ")


def test_report_is_listed_in_help() -> None:
    result = run_cli("report", "--help")
    assert result.returncode == 0
    assert b"--format" in result.stdout and b"effort" in result.stdout


# --------------------------------------------------------------------------- escaping

EVIL_FILE = "<img src=x onerror=alert(1)>&\"q'.cu"
EVIL_ASM = "mov.u32 %0, %%laneid; // </code></td><script>alert(2)</script>"
EVIL_SOURCE = f"""\
__device__ unsigned lane() {{
  unsigned r;
  asm volatile("{EVIL_ASM}" : "=r"(r));
  return r;
}}
void host() {{ cudaEvilThing_xss(0); }}
"""


def evil_report(root: Path) -> Report:
    src = root / "src"
    src.mkdir(parents=True)
    (src / EVIL_FILE).write_text(EVIL_SOURCE)
    (src / "a|b.cu").write_text(
        "void f(void* c, const void* fn) { cudaGetDriverEntryPointByVersion(c, fn, 0); }\n"
    )
    return report_of(src)


def test_html_escapes_file_names_and_code(tmp_path: Path) -> None:
    report = evil_report(tmp_path)
    assert any(s.text.startswith("mov.u32") and "<script>" in s.text for s in report.ptx)
    html = render_html(report)
    assert "<img" not in html
    assert "<script" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;&amp;&quot;q&#x27;.cu" in html
    assert "&lt;/code&gt;&lt;/td&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert "cudaEvilThing_xss" in html


def test_markdown_escapes_table_cells(tmp_path: Path) -> None:
    text = render_markdown(evil_report(tmp_path))
    assert "a\\|b.cu" in text
    outside_code = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", text)
    assert "<img" in text and "<script>" in text  # inside code spans, where they are inert
    assert "<img" not in outside_code and "<script" not in outside_code
    for line in text.splitlines():
        if line.startswith("| ") and "a\\|b.cu" in line:
            assert line.replace("\\|", "").count("|") == 8  # 7 columns: the pipe did not split
    assert md_text("a <b> | c") == "a \\<b\\> \\| c"
    assert md_code("x`y") == "``x`y``"
    assert md_text("use `a|b` now") == "use `a\\|b` now"


# --------------------------------------------------------------------------- Chromium

_CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
]


def chromium() -> str:
    """Debian's chromium; installed here when CI requires it (HIPIFY_PY_REQUIRE_TOOLCHAIN=1)."""
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None
    )
    if found:
        return found
    if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") != "1":
        pytest.skip(
            "chromium is not installed (apt-get install chromium); CI installs it itself "
            "(HIPIFY_PY_REQUIRE_TOOLCHAIN=1)"
        )
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        pytest.fail("chromium is missing and cannot be installed here (needs root and apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(command)} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    found = shutil.which("chromium")
    if not found:
        pytest.fail("apt-get install chromium did not install /usr/bin/chromium")
    return found


def render_in_chromium(page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [chromium(), *_CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
    )


def console_messages(stderr: str) -> list[str]:
    """The page's console output (errors, CSP violations, uncaught exceptions)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


def test_html_loads_in_headless_chromium(project: Path, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = run_cli("report", str(project), "--format", "html", "-o", str(page), "-j", "1")
    assert result.returncode == 0, result.stderr
    evil = render_html(evil_report(tmp_path / "evil"))
    evil_page = tmp_path / "evil.html"
    evil_page.write_text(evil, encoding="utf-8")

    dom = render_in_chromium(page, tmp_path / "profile", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-3000:]
    assert "<title>hipify-py migration report</title>" in dom.stdout
    assert '<svg id="coverage-chart"' in dom.stdout
    assert dom.stdout.count('class="converted"') == 3  # one green bar per library
    assert "cudaStreamGetCaptureInfo_v3" in dom.stdout
    assert console_messages(dom.stderr) == []

    shot = tmp_path / "report.png"
    pic = render_in_chromium(
        page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1200,2400"
    )
    assert pic.returncode == 0, pic.stderr[-3000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    assert console_messages(pic.stderr) == []

    # the escaped hostile page loads cleanly too: no script ran, nothing was blocked
    hostile = render_in_chromium(evil_page, tmp_path / "profile", "--dump-dom")
    assert hostile.returncode == 0
    assert console_messages(hostile.stderr) == []
    assert "alert(2)" in hostile.stdout and "<script" not in hostile.stdout

    # and the check itself is not blind: a page with an error is caught
    broken = tmp_path / "broken.html"
    broken.write_text("<!DOCTYPE html><title>x</title><script>undefinedFunction();</script>")
    caught = render_in_chromium(broken, tmp_path / "profile", "--dump-dom")
    assert any("Uncaught" in line for line in console_messages(caught.stderr))


# --------------------------------------------------------------------------- docs


def test_docs_describe_the_model_and_the_schema() -> None:
    docs = (REPO / "docs" / "report.md").read_text(encoding="utf-8")
    assert effort_model_markdown() in docs, "docs/report.md: paste effort_model_markdown()"
    for key in JSON_KEYS:
        assert f"`{key}`" in docs, key


def test_one_document_two_renderers() -> None:
    """The Markdown and the HTML report are one document: each block and span
    is written in both formats, escaped for each, unless it says 'only'."""
    table = Table(
        (Column("what"), Column("count", numeric=True), Column("fix", only="html")),
        [((words("a|<b>_x_"),), (plain(3, title="f.cu, g.cu"),), (prose("use `hipFoo`"),))],
    )
    doc = Document(
        "T",
        [
            Heading(2, (lit("Hazards"),), "hazards"),
            Paragraph((lit("summary table here"),), only="md"),
            Cards([("7", "sites", "bad")]),
            table,
            Details(
                (lit("HPY401 mask"), lit(": 2 site(s)", "html")),
                (BulletList([(code("a.cu:1:2"), lit(":", "md"), lit(" "), prose("see `x<y>`"))]),),
                opened=True,
                md_level=3,
            ),
        ],
    )
    md = document.render_markdown(doc)
    page = document.render_html(doc)
    assert "## Hazards\n" in md and '<h2 id="hazards">Hazards</h2>' in page
    assert "summary table here" in md and "summary table here" not in page
    assert "sites" not in md and '<div class="card"><b class="bad">7</b>' in page
    assert "| what | count |\n|---|---:|\n| a\\|\\<b\\>\\_x\\_ | 3 |\n" in md
    assert "hipFoo" not in md and "<td>use <code>hipFoo</code></td>" in page
    assert '<td>a|&lt;b&gt;_x_</td><td class="n"><span title="f.cu, g.cu">3</span></td>' in page
    assert "### HPY401 mask\n\n- `a.cu:1:2`: see `x<y>`\n" in md
    assert "<details open><summary>HPY401 mask: 2 site(s)</summary>" in page
    assert "<li><code>a.cu:1:2</code> see <code>x&lt;y&gt;</code></li>" in page
