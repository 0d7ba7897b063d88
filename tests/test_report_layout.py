"""`hipify-py report` on a big tree: files in order of effort, a files table whose
path column stays readable (CSS rules, and the layout measured in headless
Chromium), hints that say what to do, the CSV exports and the API inventory.
Through the real CLI."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from test_report import _CHROMIUM_FLAGS, PROJECT, chromium, make_tree

from hipify_py.report.migration import (
    API_COLUMNS,
    FILE_COLUMNS,
    blocker_actions,
    csv_cell,
    with_action,
)
from hipify_py.tables.cache import load_table


def _report(src: Path, fmt: str, *args: str) -> str:
    # from the tree's folder: paths as a user sees them (Samples/...)
    result = run_cli("report", src.name, "--format", fmt, "-j", "2", *args, cwd=src.parent)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode("utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tree(tmp_path_factory.mktemp("layout"), PROJECT)


# A cuda-samples-like tree: deep, long paths (Samples/<category>/<sample>/...),
# 240 files, some with unsupported APIs and hazards, most clean.
CATEGORIES = ("0_Introduction", "2_Concepts_and_Techniques", "3_CUDA_Features", "5_Domain_Specific")
SAMPLES = ("conjugateGradientMultiDeviceCG", "simpleCooperativeGroups", "cudaTensorCoreGemm")
SAMPLE = """\
#include <cuda_runtime.h>
__global__ void kernel_{n}(float* p) {{ p[threadIdx.x] += 1.0f; }}
void run_{n}(float* host, cudaStream_t s) {{
  float* dev;
  cudaMalloc(&dev, 64);
  cudaMemcpyAsync(dev, host, 64, cudaMemcpyHostToDevice, s);
{extra}}}
"""
LONG_NAMES = (
    "cudaGraphicsResourceGetMappedMipmappedArray",
    "cudaD3D10ResourceGetSurfaceDimensions",
    "cudaGraphicsVDPAURegisterVideoSurface",
    "cudaStreamUpdateCaptureDependencies_v2",
    "cudaGraphicsVDPAURegisterOutputSurface",
    "cudaDeviceUnregisterAsyncNotification",
    "cudaEGLStreamConsumerConnectWithFlags",
    "cudaOccupancyMaxPotentialClusterSize",
)
EXTRAS = (
    "",
    "  cudaStreamGetCaptureInfo_v3(s, 1, dev);\n",
    "  cudaGetDriverEntryPointByVersion(nullptr, nullptr, nullptr);\n  cudaGetDriverEntryPointByVersion(nullptr, nullptr, nullptr);\n",
    # what squeezed the path column: rows whose "blocked by" lists long names
    "".join(f"  {name}(0);\n" for name in LONG_NAMES),
)


@pytest.fixture(scope="module")
def big_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("samples") / "Samples"
    for n in range(240):
        category = CATEGORIES[n % len(CATEGORIES)]
        sample = f"{SAMPLES[n % len(SAMPLES)]}{n:03d}"
        folder = root / category / sample / "src" / "kernels"
        folder.mkdir(parents=True)
        extra = EXTRAS[2] if n % 37 == 5 else EXTRAS[1] if n % 11 == 3 else EXTRAS[0]
        extra = EXTRAS[3] if n % 29 == 17 else extra
        (folder / f"{sample}_kernels.cu").write_text(SAMPLE.format(n=n, extra=extra))
    return root


# --------------------------------------------------------------------------- order


def test_files_are_ordered_by_effort_in_every_format(big_tree: Path) -> None:
    data = json.loads(_report(big_tree, "json"))
    files = data["files"]
    assert len(files) == 240
    efforts = [(f["effort_minutes"]["high"], f["effort_minutes"]["low"]) for f in files]
    assert efforts == sorted(efforts, reverse=True)
    assert efforts[0] > efforts[-1]  # not all equal: the order is visible
    # the first file with eight unsupported APIs comes first, files with
    # blockers before clean ones (not the alphabetical order)
    assert files[0]["blockers"] == list(LONG_NAMES), files[0]
    assert files[0]["effort_minutes"]["high"] > 2 * files[1]["effort_minutes"]["high"]
    blocked = [bool(f["blockers"]) for f in files]
    assert blocked == sorted(blocked, reverse=True) and 0 < sum(blocked) < 40
    assert [f["path"] for f in files] != sorted(f["path"] for f in files)
    assert files[0]["path"].startswith("Samples/")
    order = [f["path"] for f in files]

    rows = list(csv.DictReader(io.StringIO(_report(big_tree, "csv"))))
    assert [r["path"] for r in rows] == order
    html = _report(big_tree, "html")
    table = html[html.index('id="files-table"') :]
    table = table[: table.index("</table>")]
    paths = [
        re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r'<td class="path">(.*?)</td>', table)
    ]
    assert paths == order
    markdown = _report(big_tree, "md")
    section = markdown[markdown.index("\n## Files\n") :]
    section = section[: section.index("\n## ", 1)]
    assert re.findall(r"^\| `([^`]+)`", section, re.MULTILINE) == order


# --------------------------------------------------------------------------- layout


def test_the_path_column_cannot_be_squeezed(big_tree: Path) -> None:
    html = _report(big_tree, "html")
    css = html[html.index("<style>") : html.index("</style>")]
    # a minimum width for paths, breaks only after '/', and sideways scrolling
    # for a table wider than the page instead of squeezed columns
    assert re.search(r"td\.path\{min-width:\d+em", css)
    assert "td.path code{overflow-wrap:normal;word-break:normal}" in css
    assert ".scroll{overflow-x:auto" in css
    table = html[html.index('id="files-table"') :]
    table = table[: table.index("</table>")]
    cells = re.findall(r'<td class="path"><code>(.*?)</code>', table)
    assert len(cells) == 240
    for cell in cells:
        assert cell.count("/<wbr>") == cell.count("/") >= 5
    # every table sits in a scroll box
    assert html.count("<table") == html.count('<div class="scroll"><table')


# The page with a script that measures the files table (the report itself has
# no script, and its Content-Security-Policy forbids one).
_MEASURE = """<script>
const cells = [...document.querySelectorAll('#files-table td.path')];
const line = parseFloat(getComputedStyle(cells[0].querySelector('code')).lineHeight) || 18;
const out = {
  cells: cells.length,
  minWidth: Math.min(...cells.map(c => c.getBoundingClientRect().width)),
  maxLines: Math.max(...cells.map(c => Math.round(c.querySelector('code').getBoundingClientRect().height / line))),
  pageWidth: document.documentElement.clientWidth,
  bodyScroll: document.documentElement.scrollWidth,
  tableWidth: document.getElementById('files-table').getBoundingClientRect().width,
  boxWidth: document.getElementById('files-table').parentElement.clientWidth,
};
document.body.insertAdjacentHTML('beforeend', '<pre id="measured">' + JSON.stringify(out) + '</pre>');
</script>"""


def test_the_files_table_measured_in_chromium_at_1400px(big_tree: Path, tmp_path: Path) -> None:
    """The layout itself, at the width of a laptop screen: each path cell is
    wide (the bug: about 3 characters, each path over ~15 lines) and a path
    takes at most 3 lines; the table fits the page (no sideways scrolling)."""
    html = _report(big_tree, "html")
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    page = tmp_path / "measure.html"
    page.write_text(html.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    done = subprocess.run(
        [
            chromium(),
            *_CHROMIUM_FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1400,2000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = re.search(r"<pre id=\"measured\">(\{.*?\})</pre>", done.stdout)
    assert found, done.stdout[-2000:]
    measured = json.loads(found.group(1).replace("&quot;", '"'))
    assert measured["cells"] == 240
    assert measured["minWidth"] >= 300, measured  # at least 24em of 12.5px monospace
    assert measured["maxLines"] <= 3, measured
    assert measured["bodyScroll"] <= measured["pageWidth"], measured
    assert measured["tableWidth"] <= measured["boxWidth"] + 1, measured


# --------------------------------------------------------------------------- hints


def _probe_names() -> dict[tuple[str, str], tuple[str, Any]]:
    """One unsupported name (a function where the section has one) per
    mapping-table section that has unsupported names."""
    table = load_table()
    pick: dict[tuple[str, str], tuple[str, Any]] = {}
    for name, row in sorted(table.names.items()):
        if row.status != "unsupported" or not re.fullmatch(r"[A-Za-z_]\w*", name):
            continue
        if row.kind == "namespace":
            continue
        key = (row.library, row.section)
        if key not in pick or (pick[key][1].kind != "function" and row.kind == "function"):
            pick[key] = (name, row)
    return pick


def test_every_blocker_hint_says_what_to_do(tmp_path: Path) -> None:
    """A probe that uses one unsupported name of every table section, and
    includes every header HIP lacks: no hint is a bare section name or only
    says what is missing; a row without a hint of its own gets its section's
    action (blocker_actions.yaml)."""
    pick = _probe_names()
    assert len(pick) > 100
    body = [
        f"  (void){name}(0);" if row.kind == "function" else f"  (void)sizeof({name});"
        for name, row in pick.values()
    ]
    table = load_table()
    headers = sorted(
        name for name, h in table.headers.items() if not h.hip and re.fullmatch(r"[\w/.]+\.h", name)
    )
    assert len(headers) > 20
    src = tmp_path / "src"
    src.mkdir()
    (src / "probe.cu").write_text("void probe() {\n" + "\n".join(body) + "\n}\n")
    (src / "headers.cu").write_text("".join(f"#include <{h}>\n" for h in headers))
    data = json.loads(_report(src, "json"))
    blockers = {b["name"]: b for b in data["blockers"]}
    actions = blocker_actions()
    missing_only = re.compile(r"\bno (?:[\w+.-]+ )?(?:counterpart|equivalent|header)\.?$", re.I)
    checked = 0
    for (library, section), (name, row) in pick.items():
        blocker = blockers.get(name)
        if blocker is None:
            continue
        checked += 1
        hint = blocker["hint"]
        assert hint and hint != f"{library}: {section}", (name, hint)
        assert not missing_only.search(hint), (name, hint)
        if not row.hint:
            assert hint == actions.for_row(library, section), (name, hint)
    assert checked >= len(pick) - 3, checked
    header_blockers = [b for b in data["blockers"] if b["kind"] == "header"]
    assert len(header_blockers) >= len(headers) - 3
    for blocker in header_blockers:
        assert blocker["hint"] and not missing_only.search(blocker["hint"]), blocker
    # "libcu++ has no HIP counterpart" gets what to do appended
    assert with_action("libcu++ has no HIP counterpart", actions.headers) == (
        f"libcu++ has no HIP counterpart. {actions.headers}"
    )


def test_every_library_with_unsupported_names_has_an_action() -> None:
    table = load_table()
    actions = blocker_actions()
    libraries = {row.library for row in table.names.values() if row.status == "unsupported"}
    assert libraries <= set(actions.defaults), libraries - set(actions.defaults)
    sections = {(row.library, row.section) for row in table.names.values()}
    # a section action names a section that exists (no typo leaves it unused)
    assert set(actions.sections) <= sections, set(actions.sections) - sections
    missing_only = re.compile(r"\bno (?:[\w+.-]+ )?(?:counterpart|equivalent|header)\.?$", re.I)
    for text in [*actions.defaults.values(), *actions.sections.values(), actions.headers]:
        assert len(text.split()) >= 4 and text[0].isupper() and text.endswith("."), text
        assert not missing_only.search(text), text


# --------------------------------------------------------------------------- CSV and inventory


def test_csv_one_row_per_file(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "files.csv"
    result = run_cli(
        "report", "src", "--format", "csv", "-o", str(out), "-j", "1", cwd=project.parent
    )
    assert result.returncode == 0, result.stderr.decode()
    text = out.read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == FILE_COLUMNS
    data = json.loads(_report(project, "json"))
    assert len(rows) == 1 + len(data["files"])
    for row, entry in zip(rows[1:], data["files"], strict=True):
        record = dict(zip(FILE_COLUMNS, row, strict=True))
        assert record["path"] == entry["path"]
        assert float(record["effort_hours_high"]) == round(entry["effort_minutes"]["high"] / 60, 1)
        assert int(record["converted"]) == entry["converted"]
        assert int(record["unconverted"]) == entry["unconverted"]
        assert int(record["lines_manual"]) == entry["lines"]["manual"]
        assert record["blockers"].split(";") == (entry["blockers"] or [""])
    launch = next(r for r in rows if r[0].endswith("launch.cu"))
    assert launch[FILE_COLUMNS.index("blockers")] == (
        "cudaStreamGetCaptureInfo_v3;cudaGetDriverEntryPointByVersion;cudaOccupancyMaxActiveClusters"
    )
    host = next(r for r in rows if r[0].endswith("host.cpp"))
    assert host[FILE_COLUMNS.index("automatic_percent")] == ""  # nothing to divide


def test_csv_cells_are_not_formulas(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "=HYPERLINK(1).cu").write_text("void f() { cudaDeviceSynchronize(); }\n")
    result = run_cli("report", "=HYPERLINK(1).cu", "--format", "csv", cwd=src)
    assert result.returncode == 0, result.stderr.decode()
    rows = list(csv.reader(io.StringIO(result.stdout.decode())))
    assert rows[1][0] == "'=HYPERLINK(1).cu"
    assert csv_cell("=1+1") == "'=1+1" and csv_cell("@x") == "'@x" and csv_cell("a=b") == "a=b"


def test_api_inventory_in_every_format(project: Path) -> None:
    data = json.loads(_report(project, "json"))
    apis = {(a["name"], a["status"]): a for a in data["apis"]}
    assert apis[("cudaMalloc", "converted")] == {
        "name": "cudaMalloc",
        "library": "runtime",
        "kind": "function",
        "status": "converted",
        "hip": "hipMalloc",
        "uses": 1,
        "files": 1,
    }
    assert apis[("cudaStreamGetCaptureInfo_v3", "unsupported")]["uses"] == 3
    assert apis[("cudaStreamGetCaptureInfo_v3", "unsupported")]["files"] == 3
    assert apis[("cudaStreamGetCaptureInfo_v3", "unsupported")]["hip"] == ""
    assert apis[("<mma.h>", "unsupported-header")]["kind"] == "header"
    assert apis[("<cuda_runtime.h>", "converted")]["hip"] == "<hip/hip_runtime.h>"
    assert apis[("cudaStream_t", "converted")]["uses"] == 3
    uses = [a["uses"] for a in data["apis"]]
    assert uses == sorted(uses, reverse=True)
    # every reference converted is in it, and every unsupported use
    converted = sum(a["uses"] for a in data["apis"] if a["status"] == "converted")
    assert converted == data["totals"]["converted"]
    blocked = sum(a["uses"] for a in data["apis"] if a["status"] != "converted")
    assert blocked == sum(b["uses"] for b in data["blockers"] + data["unknown_names"])
    assert data["totals"]["apis"] == len(data["apis"])

    rows = list(csv.DictReader(io.StringIO(_report(project, "api-csv"))))
    assert tuple(rows[0]) == API_COLUMNS
    assert [(r["name"], r["status"], r["hip"], int(r["uses"])) for r in rows] == [
        (a["name"], a["status"], a["hip"], a["uses"]) for a in data["apis"]
    ]

    markdown = _report(project, "md")
    section = markdown[markdown.index("\n## CUDA APIs found\n") :]
    assert "| `cudaMalloc` | runtime | function | converted | `hipMalloc` | 1 | 1 |" in section
    assert (
        "| `cudaGetDriverEntryPointByVersion` | runtime | function | unsupported | left unchanged: HIP has no "
        "counterpart | 3 | 1 |" in section
    )
    html = _report(project, "html")
    table = html[html.index('id="api-table"') :]
    assert '<code class="name">cudaMalloc</code>' in table
    assert "<code>hipMalloc</code>" in table


def test_inventory_of_an_api_that_needs_a_newer_hip(tmp_path: Path) -> None:
    table = load_table()
    newer, row = next(
        (name, row)
        for name, row in sorted(table.names.items())
        if row.library == "runtime"
        and row.kind == "function"
        and row.hip
        and row.hip_added.startswith("6.")
    )
    src = tmp_path / "src"
    src.mkdir()
    (src / "new.cu").write_text(f"void f() {{ {newer}(0); cudaFree(0); }}\n")
    data = json.loads(_report(src, "json", "--hip-version", "5.7"))
    (blocker,) = data["blockers"]
    assert blocker["reason"] == "needs-newer-hip"
    assert "--hip-version" in blocker["hint"]  # the diagnostic's hint names what to do
    apis = {a["name"]: a for a in data["apis"]}
    assert apis[newer]["status"] == "needs-newer-hip" and apis[newer]["hip"] == row.hip
    assert apis["cudaFree"]["status"] == "converted" and apis["cudaFree"]["hip"] == "hipFree"
    markdown = _report(src, "md", "--hip-version", "5.7")
    assert f"left unchanged: `{row.hip}` needs a newer HIP" in markdown
