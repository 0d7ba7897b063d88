#!/bin/sh
# Run both binaries of build.sh on an NVIDIA GPU (sm_90) and compare their
# output line by line: one line per function (its checksum over ~1M inputs).
# Exit 0 and "EQUAL" when every line matches.  CUDA_ORIGINAL picks the
# original (default bin/cuda_original; bin/cuda_original_12 for a driver
# older than CUDA 13's).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
original=${CUDA_ORIGINAL:-$here/bin/cuda_original}
out=${OUT:-$here}
"$original" > "$out/cuda_original.txt"
"$here/bin/hip_compat_forced" > "$out/hip_compat_forced.txt"
if cmp -s "$out/cuda_original.txt" "$out/hip_compat_forced.txt"; then
    echo "EQUAL: $(tail -n 1 "$out/cuda_original.txt")"
else
    echo "DIFFERENT (original < > compat):"
    diff "$out/cuda_original.txt" "$out/hip_compat_forced.txt" || true
    exit 1
fi
