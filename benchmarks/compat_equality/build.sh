#!/bin/sh
# Build the two binaries of the compat equality proof into bin/ (see README.md):
#   bin/cuda_original       the CUDA program, CUDA's own functions (host nvcc, sm_90)
#   bin/cuda_original_12    the same with nvcc 12.4 (for a driver older than CUDA 13's)
#   bin/hip_compat_forced   its `hipify-py --compat` translation built as HIP on
#                           NVIDIA with -DHIPIFY_PY_COMPAT_FORCE: the header's bodies
# Both are static (libstdc++, libgcc, cudart).  Needs: python with hipify-py's
# dependencies, nvcc (NVCC, default /usr/local/cuda/bin/nvcc) and the NVIDIA
# root of hip_smoke (nvcc 12.4 + HIP's NVIDIA headers; NVIDIA_ROOT, default
# /var/cache/hipify-py/trixie-nvidia).  Run as root (chroot).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
NVIDIA_ROOT=${NVIDIA_ROOT:-/var/cache/hipify-py/trixie-nvidia}
PYTHON=${PYTHON:-python3}
static="-Xcompiler -static-libstdc++,-static-libgcc -cudart static"
mkdir -p "$here/bin"

# (a) the CUDA original
nice "$NVCC" -arch=sm_90 $static "$here/compat_equality.cu" -o "$here/bin/cuda_original"

# (b) the translation, built in the NVIDIA root
work=$(mktemp -d -p "$NVIDIA_ROOT/tmp")
trap 'rm -rf "$work"' EXIT
PYTHONPATH="$repo" "$PYTHON" -m hipify_py --compat --hip-version 6.2 -q \
    "$here/compat_equality.cu" -o "$work/hip"
cp "$here/compat_equality.cu" "$work/original.cu"
inner=/tmp/$(basename "$work")
m=0
mountpoint -q "$NVIDIA_ROOT/proc" || { mount --bind /proc "$NVIDIA_ROOT/proc"; m=1; }
status=0
nice chroot "$NVIDIA_ROOT" sh -c "cd $inner/hip && nvcc -ccbin g++-13 -x cu -arch=sm_90 \
    -D__HIP_PLATFORM_NVIDIA__ -DHIPIFY_PY_COMPAT_FORCE $static compat_equality.cu \
    -o hip_compat_forced && nvcc -ccbin g++-13 -arch=sm_90 $static ../original.cu \
    -o ../cuda_original_12" || status=$?
[ $m = 1 ] && umount "$NVIDIA_ROOT/proc"
[ $status = 0 ] || exit $status
cp "$work/hip/hip_compat_forced" "$work/cuda_original_12" "$here/bin/"
cp "$work/hip/compat_equality.cu" "$here/bin/translated_compat_equality.hip.cu"
ls -l "$here/bin"
