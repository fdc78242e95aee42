/* The board's kernels compiled for AVX2, BMI1/2 and POPCNT (x86-64-v3); chosen at load
 * time only on a processor that has them (module.c). */
#include "board.h"
#ifdef CORE_X86_VARIANTS
#pragma GCC target("avx2,bmi,bmi2,popcnt,lzcnt")
#define VARIANT avx2
#define VARIANT_NAME "avx2"
#include "board_impl.h"
#endif
