/* The boundary's views under the name the length and model-check modules include: the
 * one boundary is boundary.h. */
#ifndef SUDOKU_VIEWS_H
#define SUDOKU_VIEWS_H

#include "boundary.h"

#endif
