// check.cuh - error-check macros and self-check helpers shared by the
// prove-suite programs, in the style of cuda-samples' helper_cuda.h.
//
// Every program prints deterministic lines (checksums, small arrays) and one
// "check NAME: PASS|FAIL (max_err E, tol T)" line per self-check, then
// "PROGRAM: PASS" and exit code 0, or "PROGRAM: FAIL" and exit code 1.
// The max_err values are masked in smoke.toml (they may differ in the last
// bits across GPUs); the PASS/FAIL verdicts are compared.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n",                \
                    cudaGetErrorName(err_), static_cast<int>(err_), __FILE__,   \
                    __LINE__, cudaGetErrorString(err_));                        \
            exit(EXIT_FAILURE);                                                 \
        }                                                                       \
    } while (0)

#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

// --seed N / --n N style options; anything else is ignored.
static inline long long arg_int(int argc, char **argv, const char *name, long long def) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (strcmp(argv[i], name) == 0) {
            return strtoll(argv[i + 1], nullptr, 10);
        }
    }
    return def;
}

// A small, portable generator for host data (the same numbers on every platform).
struct HostRng {
    uint64_t state;
    explicit HostRng(uint64_t seed) : state(seed * 6364136223846793005ULL + 1442695040888963407ULL) {}
    uint32_t next_u32() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 33);
    }
    // uniform in [0, 1)
    float uniform() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }
    // uniform in [-1, 1)
    float symmetric() { return 2.0f * uniform() - 1.0f; }
};

static int g_check_failures = 0;

static inline bool check_close(const char *what, double max_err, double tol) {
    const bool ok = max_err <= tol;  // false for NaN
    printf("check %s: %s (max_err %.3e, tol %.0e)\n", what, ok ? "PASS" : "FAIL", max_err, tol);
    if (!ok) {
        ++g_check_failures;
    }
    return ok;
}

static inline bool check_equal(const char *what, long long mismatches) {
    const bool ok = mismatches == 0;
    printf("check %s: %s (%lld mismatches)\n", what, ok ? "PASS" : "FAIL", mismatches);
    if (!ok) {
        ++g_check_failures;
    }
    return ok;
}

static inline bool check_true(const char *what, bool ok) {
    printf("check %s: %s\n", what, ok ? "PASS" : "FAIL");
    if (!ok) {
        ++g_check_failures;
    }
    return ok;
}

template <typename T>
static inline double max_abs_diff(const T *a, const T *b, size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double d = fabs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
        if (!(d <= m)) {
            m = d;  // keeps NaN
        }
    }
    return m;
}

// Relative error of a against the reference b, scaled by max(|b|, 1).
template <typename T>
static inline double max_rel_diff(const T *a, const T *b, size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double ref = static_cast<double>(b[i]);
        const double d = fabs(static_cast<double>(a[i]) - ref) / fmax(fabs(ref), 1.0);
        if (!(d <= m)) {
            m = d;
        }
    }
    return m;
}

// A position-weighted checksum: catches permutations that a plain sum would miss.
template <typename T>
static inline double weighted_checksum(const T *v, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; ++i) {
        s += static_cast<double>(v[i]) * static_cast<double>(i % 7 + 1);
    }
    return s;
}

static inline int finish(const char *program) {
    printf("%s: %s\n", program, g_check_failures == 0 ? "PASS" : "FAIL");
    return g_check_failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
