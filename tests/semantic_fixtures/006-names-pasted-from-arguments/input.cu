#include <cuda_runtime.h>
#include <cublas_v2.h>

// A macro that pastes a whole API name together from its arguments: no
// prefix of the macro can be rewritten, so the use is reported (HPY706) and
// left for a human; both engines translate the rest alike.
#define LIB_CALL(lib, fn, ...) lib##fn(__VA_ARGS__)

int main()
{
    cublasHandle_t handle;
    LIB_CALL(cublas, Create, &handle);
    cublasDestroy(handle);
    return 0;
}
