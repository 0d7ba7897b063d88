#!/usr/bin/env bash
# Print the header files and folders that `hipify-py mappings verify` reads, as
# one os.pathsep (':') separated list, for a root made by provision.sh:
#
#   include_paths.sh amd|nvidia ROOT
#   export HIPIFY_PY_HIP_INCLUDE=$(include_paths.sh amd "$(provision.sh amd)")
#   export HIPIFY_PY_CUDA_INCLUDE=$(include_paths.sh nvidia "$(provision.sh nvidia)")
#
# ROOT/usr/include is a whole /usr/include (glibc, libstdc++, and on the nvidia
# root HIP's own headers too), so the list names the toolkit's headers only.
# Keep it in step with "Verifying against real headers" in mappings/README.md.
set -euo pipefail
platform=${1:?usage: include_paths.sh amd|nvidia ROOT}
root=${2:?usage: include_paths.sh amd|nvidia ROOT}
inc=$root/usr/include
[ -d "$inc" ] || { echo "include_paths: $inc: no such folder" >&2; exit 2; }

case $platform in
  # HIP's own NVIDIA backend (hip/nvidia_detail, hipCUB's CUB backend, rocThrust's
  # CUDA system, hipRAND's *_nvcc.h) is left out: what only it declares does not
  # exist on AMD GPUs.
  amd) patterns=('hip/!(nvidia_detail|nvcc_detail)' hipblas 'hipcub/!(backend)'
    hipcub/backend/rocprim hipfft 'hiprand/!(*_nvcc.h)' hipsolver hipsparse rccl rocprim
    rocrand 'thrust/!(system)' 'thrust/system/!(cuda)') ;;
  nvidia) patterns=('cu*.h' 'cu*.hpp' builtin_types.h channel_descriptor.h common_functions.h
    cooperative_groups.h 'device_*.h' 'device_*.hpp' 'driver_*.h' 'host_*.h' library_types.h
    'math_*.h' mma.h nvrtc.h 'nvToolsExt*.h' 'sm_*.h' 'sm_*.hpp' 'surface_*.h' 'texture_*.h'
    'vector_*.h' 'vector_*.hpp' cooperative_groups crt cub nvtx3 thrust) ;;
  *) echo "include_paths: unknown platform '$platform' (amd or nvidia)" >&2; exit 2 ;;
esac

shopt -s nullglob extglob
paths=()
for pattern in "${patterns[@]}"; do
  for path in "$inc"/$pattern; do paths+=("$path"); done
done
[ ${#paths[@]} -gt 0 ] || { echo "include_paths: no $platform headers under $inc" >&2; exit 3; }
(IFS=:; echo "${paths[*]}")
