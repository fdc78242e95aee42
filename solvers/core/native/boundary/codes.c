/* A clause's normal form (codes.h), shared by the clause engine's, the trace's and the
 * length rating's builders. */
#include "codes.h"

#include <stdlib.h>

static int compare_codes(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int64_t normal_clause(int32_t *codes, int64_t n) {
    if (n > 32) { /* insertion sort for the short clauses of the encodings */
        qsort(codes, (size_t)n, sizeof *codes, compare_codes);
    } else {
        for (int64_t i = 1; i < n; i++) {
            int32_t x = codes[i];
            int64_t j = i;
            for (; j > 0 && codes[j - 1] > x; j--) codes[j] = codes[j - 1];
            codes[j] = x;
        }
    }
    int64_t k = 0; /* sorted, equal literals are adjacent, and so are l and not-l */
    for (int64_t p = 0; p < n; p++) {
        if (k > 0 && codes[p] == codes[k - 1]) continue;
        if (k > 0 && codes[p] == (codes[k - 1] ^ 1)) return -1;
        codes[k++] = codes[p];
    }
    return k;
}
