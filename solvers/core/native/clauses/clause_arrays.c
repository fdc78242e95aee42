/* The clause engine's formula from the boundary's arrays (clause_arrays.h). */
#include "clause_arrays.h"

int clauses_from_arrays(Clauses *F, PyObject *fo, PyObject *oo, long long nvars) {
    Py_buffer fv = {0}, ov = {0};
    if (get_clause_arrays(fo, oo, nvars, &fv, &ov) < 0) return -1;
    int r;
    Py_BEGIN_ALLOW_THREADS r = clauses_build(F, fv.buf, ov.buf, ov.shape[0] - 1, (int32_t)nvars);
    Py_END_ALLOW_THREADS RELEASE(&fv, &ov);
    if (r < 0 || clauses_room(F, 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}
