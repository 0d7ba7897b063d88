#!/usr/bin/env bash
# Print the header files and folders that `hipify-py mappings verify` reads, as
# one os.pathsep (':') separated list, for a root made by provision.sh:
#
#   include_paths.sh amd|amd-5.7|amd-6.4|amd-7.2|nvidia ROOT
#   export HIPIFY_PY_HIP_INCLUDE=$(include_paths.sh amd "$(provision.sh amd)")
#   export HIPIFY_PY_CUDA_INCLUDE=$(include_paths.sh nvidia "$(provision.sh nvidia)")
#
# ROOT/usr/include is a whole /usr/include (glibc, libstdc++, and on the nvidia
# root HIP's own headers too), so the list names the toolkit's headers only.
# Keep it in step with "Verifying against real headers" in mappings/README.md.
set -euo pipefail
usage="usage: include_paths.sh amd|amd-5.7|amd-6.4|amd-7.2|nvidia ROOT"
platform=${1:?$usage}
root=${2:?$usage}
inc=$root/usr/include
[ -d "$inc" ] || { echo "include_paths: $inc: no such folder" >&2; exit 2; }

case $platform in
  # HIP's own NVIDIA backend (hip/nvidia_detail, hipCUB's CUB backend, rocThrust's
  # CUDA system, hipRAND's *_nvcc.h) is left out: what only it declares does not
  # exist on AMD GPUs.
  # The libraries a release lacks (hipBLASLt, MIOpen, rocWMMA, roctx, AMD SMI
  # before 6.4 here) match nothing and are left out: verify then skips them.
  amd|amd-5.7|amd-6.4|amd-7.2) patterns=('hip/!(nvidia_detail|nvcc_detail)' hipblas hipblas-common
    'hipcub/!(backend)' hipcub/backend/rocprim hipfft 'hiprand/!(*_nvcc.h)' hipsolver
    hipsparse rccl rocprim rocrand 'thrust/!(system)' 'thrust/system/!(cuda)'
    hipblaslt 'hipblaslt-*.h' miopen rocblas rocsparse rocsolver roctracer amd_smi rocm_smi
    rocwmma) ;;
  nvidia) patterns=('cu*.h' 'cu*.hpp' builtin_types.h channel_descriptor.h common_functions.h
    cooperative_groups.h 'device_*.h' 'device_*.hpp' 'driver_*.h' 'host_*.h' library_types.h
    'math_*.h' mma.h nvml.h nvrtc.h 'nvToolsExt*.h' 'sm_*.h' 'sm_*.hpp' 'surface_*.h' 'texture_*.h'
    'vector_*.h' 'vector_*.hpp' cooperative_groups crt cub nvtx3 thrust) ;;
  *) echo "include_paths: unknown platform '$platform' (amd, amd-5.7, amd-6.4, amd-7.2 or nvidia)" >&2; exit 2 ;;
esac

shopt -s nullglob extglob
paths=()
for pattern in "${patterns[@]}"; do
  for path in "$inc"/$pattern; do [ -e "$path" ] && paths+=("$path"); done
done
# From HIP 6.x on, the device math functions (__fdividef, erfinvf, ...) are
# declared only in clang's own HIP wrapper headers, not under hip/.
if [ "$platform" != nvidia ]; then
  for path in "$root"/usr/lib/llvm-*/lib/clang/*/include/__clang_hip_*.h; do paths+=("$path"); done
fi
[ ${#paths[@]} -gt 0 ] || { echo "include_paths: no $platform headers under $inc" >&2; exit 3; }
(IFS=:; echo "${paths[*]}")
