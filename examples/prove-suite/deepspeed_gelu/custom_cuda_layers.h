// Copyright (c) Microsoft Corporation.
// SPDX-License-Identifier: Apache-2.0

// DeepSpeed Team

// custom_cuda_layers.h - a reduced stand-in for DeepSpeed 0.19.8's
// csrc/includes/custom_cuda_layers.h: only what gelu_kernels.cu (copied
// unchanged beside it) needs, with the HALF_PRECISION_AVAILABLE rule of
// csrc/includes/ds_kernel_utils.h for NVIDIA GPUs. DeepSpeed keeps a
// separate __HIP_PLATFORM_AMD__ branch there; this file is CUDA only, as a
// project before its port would be.

#pragma once

#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#if __CUDA_ARCH__ >= 530
#define HALF_PRECISION_AVAILABLE = 1
#endif  // __CUDA_ARCH__ >= 530

// Fused bias add with gelu activation
template <typename T>
void launch_bias_gelu(const T* input,
                      const T* bias,
                      T* output,
                      int intermediate_size,
                      int batch_size,
                      cudaStream_t stream);

template <typename T>
void launch_gelu(const T* input,
                 T* output,
                 int intermediate_size,
                 int batch_size,
                 cudaStream_t stream);

template <typename T>
void launch_d_gelu(T* d_output,
                   const T* input,
                   const T* bias,
                   int intermediate_size,
                   int batch_size,
                   cudaStream_t stream);
