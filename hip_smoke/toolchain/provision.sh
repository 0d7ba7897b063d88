#!/usr/bin/env bash
# Make (or reuse) a Debian 13 (trixie) root holding a real hipcc for gfx942 or
# an nvcc 12.4 + HIP headers for HIP's NVIDIA backend.  See docs/smoke.md.
#
#   provision.sh amd|nvidia [ROOT]
#
# Idempotent: a root whose marker file exists is reused as is.
set -euo pipefail
platform=${1:?usage: provision.sh amd|nvidia [ROOT]}
cache=${HIPIFY_PY_TOOLCHAIN_CACHE:-/var/cache/hipify-py}
root=${2:-$cache/trixie-$platform}
mirror=${HIPIFY_PY_DEBIAN_MIRROR:-http://deb.debian.org/debian}

case $platform in
  amd) pkgs="hipcc libamdhip64-dev rocm-device-libs-17 clang-17 libhipblas-dev libhiprand-dev libhipfft-dev libhipsparse-dev libhipsolver-dev libhipcub-dev librocprim-dev librocrand-dev librocthrust-dev librccl-dev" ;;
  nvidia) pkgs="nvidia-cuda-toolkit nvidia-cuda-dev libamdhip64-dev g++-13" ;;
  *) echo "provision: unknown platform '$platform' (amd or nvidia)" >&2; exit 2 ;;
esac
marker=$root/.hipify-py-complete

say() { echo "provision: $*" >&2; }

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$pkgs" ]; then
  say "reusing complete $platform root at $root"
  echo "$root"; exit 0
fi
[ "$(id -u)" = 0 ] || { say "must run as root to build a debootstrap root at $root"; exit 3; }
if ! command -v debootstrap >/dev/null; then
  say "installing debootstrap"
  apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null || { say "cannot install debootstrap (no network?)"; exit 3; }
fi
mkdir -p "$root"
if [ ! -x "$root/usr/bin/apt-get" ]; then
  say "debootstrap trixie into $root"
  debootstrap --variant=minbase trixie "$root" "$mirror" >&2 || { say "debootstrap failed (no network or mirror unreachable: $mirror)"; exit 3; }
fi
cat > "$root/etc/apt/sources.list.d/debian.sources" <<SRC
Types: deb
URIs: $mirror
Suites: trixie
Components: main contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
rm -f "$root/etc/apt/sources.list"
mounted=0
cleanup() { if [ $mounted = 1 ]; then umount "$root/proc" || true; fi; }
trap cleanup EXIT
if ! mountpoint -q "$root/proc"; then mount --bind /proc "$root/proc"; mounted=1; fi
say "apt-get install $pkgs"
chroot "$root" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends $pkgs >&2
echo "$pkgs" > "$marker"
say "complete $platform root at $root"
echo "$root"
