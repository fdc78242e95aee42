/* The board's kernels compiled for SSE4.1 and POPCNT (x86-64-v2); chosen at load time
 * only on a processor that has them (module.c). */
#include "board.h"
#ifdef CORE_X86_VARIANTS
#pragma GCC target("sse4.1,sse4.2,popcnt")
#define VARIANT sse41
#define VARIANT_NAME "sse4.1"
#include "board_impl.h"
#endif
