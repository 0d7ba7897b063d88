#include <hip/hip_runtime.h>
#include "generated/config.h"

// The build generates config.h; without the build's -I the file does not
// compile, so the clang engine falls back to the default engine (HPY701).
int main()
{
    void* p = nullptr;
    hipMalloc(&p, CONFIG_BYTES);
    hipFree(p);
    return 0;
}
