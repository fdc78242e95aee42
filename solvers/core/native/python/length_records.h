/* The records the refutation-length kernels work on, as Python types the core owns
 * (length_records.c): the Formula (links and constraints, copied and checked once), the
 * State of the facts, one hypothesis's Scratch and the alternative cones' Alternatives.
 * A record's arrays live in one block of its own that only the kernels write, so a call
 * checks which formula a record belongs to and that no other thread is running a kernel
 * on it, not the arrays themselves.  Python reads them through copies.
 */
#ifndef SUDOKU_LENGTH_RECORDS_H
#define SUDOKU_LENGTH_RECORDS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "length.h"

typedef struct {
    PyObject_HEAD LFormula f;
} FormulaObject;

/* What State, Scratch and Alternatives share: the formula they were made for, the block
 * holding every array, and the call guard.  `busy`: a kernel holds the record (taken with
 * the GIL held, so two threads never both take it).  `dirty`: a kernel stopped in the
 * middle of a hypothesis (a signal, an error), so its work arrays are reset before the
 * next call, as a fresh record's. */
typedef struct {
    PyObject_HEAD PyObject *formula;
    char *block;
    size_t bytes;
    int busy, dirty;
} RecordHead;

typedef struct {
    RecordHead head;
    LState s;
} StateObject;

typedef struct {
    RecordHead head;
    LScratch x;
} ScratchObject;

typedef struct {
    RecordHead head;
    LAlternatives a;
} AlternativesObject;

extern PyTypeObject FormulaType, StateType, ScratchType, AlternativesType;

/* Ready the four types and add them to module m: 0, or -1 with the exception set. */
int length_records_add(PyObject *m);

/* The formula of a Formula object, or NULL with TypeError / RuntimeError (not made). */
const LFormula *get_formula(PyObject *obj);

/* Take record `obj` of `type` (StateType, ScratchType or AlternativesType) for one call on
 * formula `fo`: NULL with the exception set when it is of another type, was not made,
 * belongs to another formula or is held by a kernel; give it back with give_record
 * (stopped: its kernel stopped or overflowed in the middle of a hypothesis). */
RecordHead *take_record(PyObject *obj, PyTypeObject *type, PyObject *fo, const char *name);
void give_record(RecordHead *r, int stopped);

/* lo <= a[i] < hi for every i < n. */
int ints_in(const int32_t *a, int64_t n, int64_t lo, int64_t hi);

#endif
