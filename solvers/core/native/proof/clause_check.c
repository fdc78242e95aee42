/* Which clause an assignment falsifies: the backends' check of every model they return
 * (solvers.backends.model_check), in C so that it takes microseconds on a rule formula.
 *
 * It reads the flat DIMACS clauses (clause c is lits[offsets[c] .. offsets[c + 1]])
 * literal by literal and shares no code with the engine's propagation, so it stays an
 * independent check of the engine's closures as well as of PySAT's and the binaries'
 * models.  An assignment is a row of truth values, row[v - 1] for variable v; a variable
 * beyond the row (and a literal 0) is false, so its negation is true.  Each row's
 * values are laid out by literal first, so a literal's truth is one load.
 */
#include "clause_check.h"

int64_t first_falsified_row(const int32_t *lits, const int64_t *offsets,
                            int64_t m, const uint8_t *row, int64_t ncols, uint8_t *value) {
    /* value[ncols + lit]: whether the literal is true, for lit in -ncols .. ncols */
    for (int64_t v = 1; v <= ncols; v++) {
        value[ncols + v] = row[v - 1] != 0;
        value[ncols - v] = row[v - 1] == 0;
    }
    value[ncols] = 0;
    uint64_t span = (uint64_t)(2 * ncols);
    for (int64_t c = 0; c < m; c++) {
        int satisfied = 0;
        for (int64_t p = offsets[c]; p < offsets[c + 1] && !satisfied; p++) {
            int64_t lit = lits[p];
            uint64_t at = (uint64_t)(lit + ncols);
            satisfied = at <= span ? value[at] : lit < 0;
        }
        if (!satisfied) return c;
    }
    return -1;
}
