#!/usr/bin/env bash
# Make (or reuse) a Debian root holding a real hipcc for gfx942 (one root per
# ROCm release) or an nvcc 12.4 + HIP headers for HIP's NVIDIA backend.
# See docs/smoke.md.
#
#   provision.sh amd|amd-5.7|amd-6.4|amd-7.2|nvidia [ROOT]
#   provision.sh mirror          print the Debian mirror it would use
#   provision.sh packages PLATFORM   print the packages it installs for one
#
#   amd-5.7  Debian 13 (trixie): HIP 5.7.1, clang 17        (`amd` is this one)
#   amd-6.4  Debian sid:         HIP 6.4.3, clang 21, hipBLASLt, MIOpen
#   amd-7.2  Debian experimental: ROCm 7.2.4, clang 22, hipBLASLt, MIOpen, rocWMMA
#   nvidia   Debian 13: nvcc 12.4, HIP's NVIDIA headers, g++-13, HIP library headers
#
# Each root also carries the HIP library headers (hipBLAS, hipFFT, hipRAND,
# hipSPARSE, hipSOLVER, hipCUB/rocPRIM/rocThrust, RCCL) and, from 6.4 on, the
# --roc targets (rocBLAS, rocSPARSE, rocSOLVER), roctx and AMD SMI.
#
# Idempotent: a root whose marker file names the same package set is reused
# as is.  The Debian mirror is $HIPIFY_PY_DEBIAN_MIRROR, else the first Debian
# archive in this machine's own apt sources.
set -euo pipefail
platform=${1:?usage: provision.sh amd|amd-5.7|amd-6.4|amd-7.2|nvidia [ROOT]}
mode=make
if [ "$platform" = packages ]; then
  mode=packages platform=${2:?usage: provision.sh packages amd|amd-5.7|amd-6.4|amd-7.2|nvidia}
fi
[ "$platform" = amd ] && platform=amd-5.7
cache=${HIPIFY_PY_TOOLCHAIN_CACHE:-/var/cache/hipify-py}

say() { echo "provision: $*" >&2; }

# The first Debian archive (not its security archive) in this machine's apt
# sources, deb822 or one-line format.
host_mirror() {
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    uri=$(awk '/^URIs:/ {for (i = 2; i <= NF; i++) print $i}' "$f" | grep -v -- '-security' | head -n1 || true)
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    uri=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; break}}' "$f" \
      | grep -v -- '-security' | head -n1 || true)
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
}
if [ "$platform" = mirror ]; then
  mirror=${HIPIFY_PY_DEBIAN_MIRROR:-$(host_mirror)}
  [ -n "$mirror" ] || { say "no Debian mirror in this machine's apt sources; set HIPIFY_PY_DEBIAN_MIRROR"; exit 3; }
  echo "$mirror"; exit 0
fi

hip_libs="libhipblas-dev libhiprand-dev libhipfft-dev libhipsparse-dev libhipsolver-dev libhipcub-dev librocprim-dev librocrand-dev librocthrust-dev librccl-dev"
roc_libs="librocblas-dev librocsparse-dev librocsolver-dev libroctx-dev libamd-smi-dev librocm-smi-dev libhipblaslt-dev libmiopen-dev"
# apt's view of sid/experimental here is a snapshot whose Release files count as expired
snapshot_opts="-o Acquire::Check-Valid-Until=false"
target_opts=""
case $platform in
  amd-5.7) dist=trixie suites=trixie snapshot_opts=""
    pkgs="hipcc libamdhip64-dev rocm-device-libs-17 clang-17 $hip_libs" ;;
  # sid's RCCL is still 5.4.3, built against HIP 5 (libamdhip64-5): it cannot
  # be installed beside HIP 6.4, so the 6.4 root has no RCCL
  amd-6.4) dist=sid suites="sid experimental"
    pkgs="hipcc libamdhip64-dev ${hip_libs/ librccl-dev/} $roc_libs" ;;
  amd-7.2) dist=sid suites="sid experimental" target_opts="-t experimental"
    pkgs="hipcc libamdhip64-dev $hip_libs $roc_libs librocwmma-dev" ;;
  nvidia) dist=trixie suites=trixie snapshot_opts=""
    # the HIP library headers too (declarations only, the same for both HIP
    # platforms; hipCUB carries its CUB backend): a translation that calls
    # hipBLAS or hipCUB compiles as HIP on NVIDIA (not RCCL, AMD's; not
    # rocThrust, whose /usr/include/thrust is CUDA's thrust here)
    pkgs="nvidia-cuda-toolkit nvidia-cuda-dev libamdhip64-dev g++-13 libhipblas-dev libhiprand-dev libhipfft-dev libhipsparse-dev libhipsolver-dev libhipcub-dev" ;;
  *) say "unknown platform '$platform' (amd, amd-5.7, amd-6.4, amd-7.2 or nvidia)"; exit 2 ;;
esac
[ $mode = packages ] && { echo "$pkgs"; exit 0; }
# the 5.7 and nvidia roots keep their old names, so roots made before are reused
case $platform in
  amd-5.7) name=trixie-amd ;;
  nvidia) name=trixie-nvidia ;;
  *) name=rocm-${platform#amd-} ;;
esac
root=${2:-$cache/$name}
marker=$root/.hipify-py-complete
want="$pkgs${target_opts:+ $target_opts}"

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; then
  say "reusing complete $platform root at $root"
  echo "$root"; exit 0
fi

mirror=${HIPIFY_PY_DEBIAN_MIRROR:-$(host_mirror)}
[ -n "$mirror" ] || { say "no Debian mirror in this machine's apt sources; set HIPIFY_PY_DEBIAN_MIRROR"; exit 3; }

[ "$(id -u)" = 0 ] || { say "must run as root to build a debootstrap root at $root"; exit 3; }
if ! command -v debootstrap >/dev/null; then
  say "installing debootstrap"
  apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null || { say "cannot install debootstrap (no network?)"; exit 3; }
fi
mkdir -p "$root"
if [ ! -x "$root/usr/bin/apt-get" ]; then
  say "debootstrap $dist into $root from $mirror"
  debootstrap --variant=minbase "$dist" "$root" "$mirror" >&2 || { say "debootstrap failed (no network or mirror unreachable: $mirror)"; exit 3; }
fi
cat > "$root/etc/apt/sources.list.d/debian.sources" <<SRC
Types: deb
URIs: $mirror
Suites: $suites
Components: main contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
rm -f "$root/etc/apt/sources.list"
mounted=0
cleanup() { if [ $mounted = 1 ]; then umount "$root/proc" || true; fi; }
trap cleanup EXIT
if ! mountpoint -q "$root/proc"; then mount --bind /proc "$root/proc"; mounted=1; fi
say "apt-get install $target_opts $pkgs"
# shellcheck disable=SC2086  # option and package lists are meant to split
chroot "$root" apt-get $snapshot_opts update -qq >&2
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get $snapshot_opts install -y -qq \
  --no-install-recommends $target_opts $pkgs >&2
chroot "$root" apt-get clean >&2 || true
echo "$want" > "$marker"
say "complete $platform root at $root"
echo "$root"
