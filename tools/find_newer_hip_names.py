"""List the rows the tables call unsupported whose HIP name real HIP headers declare.

HIPIFY's tables (the source of the generated mappings) are of the HIP 6.3 era;
later ROCm releases added runtime names (hipLaunchKernelEx, hipEventWaitDefault,
hipStreamGetAttribute, ...) that the tables still mark as having no HIP
counterpart, so hipify-py reports them (HPY101) and leaves the CUDA name.  This
maintainer tool scans the HIP headers of each ROCm root that
hip_smoke/toolchain/provision.sh made, finds the unsupported rows whose HIP
spelling (cuda -> hip, CUDA_ -> HIP_, cu -> hip) one of them declares, and prints
each as a curated row with ``hip_added`` set to the oldest release checked that
declares it (a conservative floor: an older release may have it too).  A person
reviews the list (a name that matches is not always the same API: the driver's
cuMemcpy is not hipMemcpy) and puts the rows into a curated file; then
``tools/signature_check.py`` checks their calls compile.

    python tools/find_newer_hip_names.py [--library runtime,blas] [--releases 5.7,6.4,7.2]
        [--check]

With --driver-twins it lists instead the driver API's unsupported enumerators
and macros whose runtime twin (CU_EVENT_WAIT_DEFAULT / cudaEventWaitDefault:
the same name once prefixes, underscores and case are set aside) the tables
translate to a name the headers declare: HIP spells the driver's enumerators
with the runtime's names.  Types are left out: the driver's structs have other
fields (CUlaunchConfig has gridDimX, cudaLaunchConfig_t a dim3).

With --check it exits 1 when it finds any (tests/test_newer_hip_names.py runs
it so over every library but the driver API, whose HIP spellings often name
another API: the driver's cuMemcpy is not hipMemcpy).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hip_smoke.toolchain import RELEASES, complete_root  # noqa: E402
from hipify_py.tables import verify  # noqa: E402
from hipify_py.tables.cache import load_table  # noqa: E402
from hipify_py.tables.table import MappingTable, Row  # noqa: E402

# CUDA prefix -> HIP prefix, longest first
PREFIXES = (("CUDA_", "HIP_"), ("cuda", "hip"), ("CUDA", "HIP"), ("CU_", "HIP_"), ("cu", "hip"))


def hip_spellings(cuda: str) -> list[str]:
    return [hip + cuda[len(prefix) :] for prefix, hip in PREFIXES if cuda.startswith(prefix)]


def twin_key(name: str) -> str:
    """CU_MEM_LOCATION_TYPE_HOST_NUMA and cudaMemLocationTypeHostNuma -> memlocationtypehostnuma"""
    for prefix, _hip in PREFIXES:
        if name.startswith(prefix):
            name = name[len(prefix) :]
            break
    return name.replace("_", "").lower()


Scans = list[tuple[str, verify.HeaderScan]]  # (release, its AMD headers), oldest first
Found = list[tuple[Row, str, str]]
# the driver rows --driver-twins takes: its structs have other fields than the runtime's
ENUMS = ("enum", "macro")  # (row, its HIP name, the oldest release declaring it)


def declares(scan: verify.HeaderScan, name: str) -> bool:
    # a macro the headers only test (#ifdef X) is a switch for the user, not an API
    return bool(scan.names.get(name, set()) - {"tested"})


def first_release(scans: Scans, name: str) -> str | None:
    return next((release for release, scan in scans if declares(scan, name)), None)


def same_spelling(table: MappingTable, scans: Scans, libraries: set[str]) -> Found:
    found: Found = []
    for row in table.names.values():
        if row.status != "unsupported" or row.library not in libraries or row.erase:
            continue
        for hip in hip_spellings(row.cuda):
            first = first_release(scans, hip)
            if first is not None:
                found.append((row, hip, first))
                break
    return found


def driver_twins(table: MappingTable, scans: Scans) -> Found:
    runtime: dict[str, list[Row]] = {}  # twin key -> supported runtime rows
    for row in table.names.values():
        if row.library == "runtime" and row.status == "supported" and row.hip:
            runtime.setdefault(twin_key(row.cuda), []).append(row)
    found: Found = []
    for row in table.names.values():
        if row.library != "driver" or row.status != "unsupported" or row.kind not in ENUMS:
            continue
        twins = runtime.get(twin_key(row.cuda), [])
        hip = twins[0].hip if len(twins) == 1 and twins[0].kind in ENUMS else None
        first = first_release(scans, hip) if hip else None
        if hip and first is not None:
            found.append((row, hip, first))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", default="runtime", help="comma-separated")
    parser.add_argument("--releases", default=",".join(RELEASES), help="comma-separated")
    parser.add_argument("--mappings", type=Path, help="the tables' folder (default: shipped)")
    parser.add_argument(
        "--driver-twins", action="store_true", help="driver enumerators named like a runtime row"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if any row is found")
    args = parser.parse_args(argv)
    libraries = set(args.library.split(","))
    scans: Scans = []
    for release in args.releases.split(","):
        root = complete_root(f"amd-{release}")
        if root is None:
            print(f"no ROCm {release} root: run hip_smoke/toolchain/provision.sh amd-{release}")
            return 2
        # AMD's headers only: hip/nvidia_detail maps HIP names onto CUDA's
        files = verify.header_files([root / "usr" / "include" / "hip"])
        amd = [f for f in files if "nvidia_detail" not in f.parts]
        scans.append((release, verify.scan_headers(amd, "hip")))
    table = load_table(args.mappings)
    found = (
        driver_twins(table, scans) if args.driver_twins else same_spelling(table, scans, libraries)
    )
    for row, hip, first in sorted(found, key=lambda item: (item[0].library, item[0].cuda)):
        print(
            f"    {row.cuda}: {{hip: {hip}, kind: {row.kind}, status: supported, "
            f'hip_added: "{first}.0", override: true}}  # {row.library}'
        )
    print(f"# {len(found)} unsupported rows whose HIP name the headers declare")
    return 1 if args.check and found else 0


if __name__ == "__main__":
    sys.exit(main())
