"""hipify-py prove's whole pipeline in process - the real translation, build
commands with their placeholders, the build folder's manifest, runs and
verdicts - with a stand-in compiler whose 'binaries' are shell scripts (the
real compilers: test_prove_compile.py)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from hip_smoke.harness import load_platforms
from hip_smoke.prove_build import Toolchains, build_all
from hip_smoke.prove_config import load_smoke_config
from hip_smoke.prove_run import MANIFEST, run_and_judge
from hip_smoke.toolchain import Compiler

# writes, as the binary named by -o, a script printing the translated source
# (so the output shows which side built it) or fails like a compiler
FAKE = r"""#!/bin/sh
out=""; sources=""
while [ $# -gt 0 ]; do
  case $1 in -o) out=$2; shift ;; *.cu) sources="$sources $1" ;; esac
  shift
done
for s in $sources; do
  if grep -q BROKEN "$s"; then echo "$s:2:1: error: this does not compile" >&2; exit 1; fi
done
{ echo '#!/bin/sh'; echo "echo args \"\$*\" seed \"\$SEED\""; echo "cat <<'X'";
  grep -h -o 'cuda[A-Z][A-Za-z]*\|hip[A-Z][A-Za-z]*' $sources | sort -u | sed 's/^hip/cuda/'; echo X; } > "$out"
chmod +x "$out"
"""

CONFIG = """\
runs = 2
[[program]]
name = "good"
sources = ["good.cu"]
seed = 5
args = ["{seed}"]
env = { SEED = "{seed}" }

[[program]]
name = "custom"
build = "{cc} {flags} good.cu -o {out}"

[[program]]
name = "broken"
sources = ["broken.cu"]
"""


def _project(tmp_path: Path) -> tuple[Path, Compiler]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "good.cu").write_text("void f() { cudaDeviceSynchronize(); cudaFree(0); }\n")
    (project / "broken.cu").write_text("// BROKEN\nvoid g() { cudaDeviceSynchronize(); }\n")
    (project / "smoke.toml").write_text(CONFIG)
    fake = tmp_path / "fakecc"
    fake.write_text(FAKE)
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return project, Compiler("amd", [str(fake)], description="fake", hip_version="6.2")


def _everywhere(vendor: str) -> bool:
    return True


def test_translate_build_run_and_judge(tmp_path: Path) -> None:
    project, fake = _project(tmp_path)
    original = Compiler("cuda", fake.command, description="fake nvcc")
    config = load_smoke_config(project / "smoke.toml", set(load_platforms()["libraries"]))
    toolchains = Toolchains(compilers={"cuda": original, "amd": fake})
    toolchains.missing["nvidia"] = "no nvcc 12.x here"
    build = tmp_path / "build"
    manifest = build_all(config, list(config.programs), toolchains, build, load_platforms())
    assert manifest["translations"] == {"amd": "translated for HIP 6.2"}
    entries = {e["name"]: e for e in manifest["programs"]}
    good = entries["good"]["sides"]
    assert good["cuda"]["built"] == good["amd"]["built"] == "ok"
    assert good["amd"]["command"].endswith("--offload-arch=gfx942 -x hip good.cu -o $OUT/prog")
    assert entries["custom"]["sides"]["amd"]["command"].endswith("-x hip good.cu -o $OUT/prog")
    assert good["nvidia"] == {"built": "skipped", "detail": "no nvcc 12.x here"}
    broken = entries["broken"]["sides"]["amd"]
    assert broken["built"] == "failed"
    assert broken["detail"] == "broken.cu:2:1: error: this does not compile"
    assert json.loads((build / MANIFEST).read_text()) == manifest

    results = run_and_judge(build, manifest, present=_everywhere)
    verdicts = {(r["program"], r["platform"]): r for r in results}
    same = verdicts[("good", "amd")]
    assert same["verdict"] == "same", (same["detail"], same["runs"])
    # the translation really ran the translated source (hip names, mapped back
    # by the stand-in so that both sides print the same), with the seed
    assert same["runs"]["translation"][0]["stdout"].startswith("args 5 seed 5\n")
    assert verdicts[("custom", "amd")]["verdict"] == "same"
    assert verdicts[("broken", "amd")]["verdict"] == "failed"
    assert verdicts[("good", "nvidia")]["verdict"] == "skipped"

    # a later run into the same folder that builds the translation only keeps
    # the originals built before (the GPU machine builds those with its nvcc)
    (project / "good.cu").write_text("void f() { cudaDeviceSynchronize(); }\n")
    only_amd = Toolchains(compilers={"amd": fake}, wanted={"amd"})
    again = build_all(config, list(config.programs), only_amd, build, load_platforms())
    kept = {e["name"]: e for e in again["programs"]}["good"]
    assert kept["sides"]["cuda"]["built"] == "ok"
    results = run_and_judge(build, again, present=_everywhere)
    changed = next(r for r in results if (r["program"], r["platform"]) == ("good", "amd"))
    assert changed["verdict"] == "different"
    assert changed["difference"]["expected"] == "cudaFree"
    assert changed["difference"]["got"] == "<end of output>"
