/* Which clause an assignment falsifies: the backends' check of every model they return
 * (solvers.clause_check), in C so that it takes microseconds on a rule formula.
 *
 * It reads the flat DIMACS clauses (clause c is lits[offsets[c] .. offsets[c + 1]])
 * literal by literal and shares no code with the engine's propagation, so it stays an
 * independent check of the engine's closures as well as of PySAT's and the binaries'
 * models.  An assignment is a row of truth values, row[v - 1] for variable v; a variable
 * beyond the row (and a literal 0) is false, so its negation is true.
 */
#include "clause_check.h"

int64_t first_falsified_row(const int32_t *lits, const int64_t *offsets, int64_t m,
                            const uint8_t *row, int64_t ncols) {
    for (int64_t c = 0; c < m; c++) {
        int satisfied = 0;
        for (int64_t p = offsets[c]; p < offsets[c + 1] && !satisfied; p++) {
            int64_t lit = lits[p], v = lit > 0 ? lit : -lit;
            int value = v >= 1 && v <= ncols && row[v - 1];
            satisfied = lit > 0 ? value : (lit < 0 && !value);
        }
        if (!satisfied) return c;
    }
    return -1;
}
