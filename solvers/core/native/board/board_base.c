/* The board's kernels for any x86-64 (or other) processor: the baseline, always built. */
#define VARIANT base
#define VARIANT_NAME "base"
#include "board_impl.h"
