"""Shortest refutations: numba kernels for the refutation-length rating.

A hypothesis (a candidate, cell = value) refuted by unit propagation is one of
Berthier's braids.  Its length is the number of constraints the refutation uses, and
this module finds, for each candidate, a refutation of smallest length.

How a refutation is counted.  Clauses of two literals are *links*: "x excludes y" (the
at-most-one clauses of a cell or of a row/column/box-value place) and they cost
nothing, as Berthier's links cost nothing in a whip or a braid.  Every longer clause is
one *constraint*: in the Sudoku encodings it is the at-least-one clause of a cell or of
a row/column/box-value place (Berthier's CSP variables rc, rn, cn, bn; diagonal and
window places in the variants), the only long clause of that constraint, so counting
long clauses counts constraints.  A constraint is used when it forces a value (it has
one candidate left: a single inside the hypothesis) or when it has none left (the
contradiction).  The *cone* of a literal derived under the hypothesis is the set of
constraints its derivation uses: empty for the hypothesis and for the facts of the
state, the cone of the literal that implies it through a link, and for a literal a
constraint forces, that constraint and the cones of the literals that removed its other
candidates.  The refutation's length is the size of the contradiction's cone: the
constraints of the implication graph that leads to it, which is what conflict analysis
of the propagation reads back from the conflict.  The hypothesis's own constraints are
never counted (they are satisfied by it), as a whip of length n counts its n
CSP-variables and not the target's.

Which refutation.  Unit propagation can derive a literal in several ways; the kernel
propagates in order of cone size, like Dijkstra's algorithm with "size of the union"
as distance: a literal takes the cone of the first (smallest) derivation that reaches
it, and the propagation stops once the cones it would extend are no smaller than the
best contradiction found.  Sets do not add like distances (two derivations can share
constraints), so this is the shortest refutation up to that choice, not a proven
minimum; it is exact for whip-shaped (linear) refutations.

Where the first derivation overcounts.  A braid may use a value forced two ways (say
by its row and by its column) and the contradiction may need that column anyway: the
first derivation's row is then one constraint too many.  `refutation_with_alternatives`
searches the same way but keeps, for each literal, up to CONES_PER_LITERAL cones that
are not supersets of one another (a superset can never give a smaller union), and tries
every combination of them where a constraint forces a value or breaks.  With no cap it
would be exact (every literal of a shortest refutation keeps a cone inside it, by
induction along the derivation); the cap keeps it affordable.  It costs several times
the plain search, so the rating uses it only where a step would raise the rating (see
`simplest_first`).

Cones are bit sets, one bit per long clause (6 words of 64 bits for 9x9).  Facts of the
state may carry cones too (`cone_of` of an assigned literal): the nested rating
(depth 2 and more) runs these kernels on a state whose facts were derived under an
outer hypothesis, so that its refutation counts everything it rests on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.literals import to_code

# Fields of the formula tuple G (built once per formula by `build_links`).
G_BSTART, G_BIMP, G_OSTART, G_OCC, G_CSTART, G_CLITS = range(6)
# Fields of the state tuple T (the facts and their cones), see `new_state`.
T_VAL, T_CONE, T_FALSE, T_TRUE, T_POOL, T_ST = range(6)
# Slots of T[T_ST].
POOL_SIZE = 0  # rows of the cone pool in use (row 0 is the empty cone)
TRACK = 1  # 1: facts of the state carry cones (nested rating), 0: all cones empty
NUM_SLOTS = 2

NO_CONFLICT = -1
EMPTY = 0  # pool row of the empty cone


@njit(cache=True)
def build_links(flat, offsets, num_vars):
    """Return G = (bstart, bimp, ostart, occ, cstart, clits) for clauses of DIMACS ints
    (clause i is flat[offsets[i]:offsets[i + 1]]): links (binary clauses) as implication
    lists of literal codes, long clauses (3 literals or more, the constraints) flat with
    their occurrence lists.  Unit clauses are not kept: pass them as facts."""
    m = offsets.shape[0] - 1
    nlits = 2 * num_vars
    bcount = np.zeros(nlits + 1, np.int64)
    ocount = np.zeros(nlits + 1, np.int64)
    n_long = 0
    n_long_lits = 0
    for i in range(m):
        a, b = offsets[i], offsets[i + 1]
        if b - a == 2:
            bcount[to_code(flat[a]) ^ 1] += 1
            bcount[to_code(flat[a + 1]) ^ 1] += 1
        elif b - a >= 3:
            n_long += 1
            n_long_lits += b - a
            for p in range(a, b):
                ocount[to_code(flat[p])] += 1
    bstart = np.zeros(nlits + 1, np.int32)
    ostart = np.zeros(nlits + 1, np.int32)
    for lit in range(nlits):
        bstart[lit + 1] = bstart[lit] + bcount[lit]
        ostart[lit + 1] = ostart[lit] + ocount[lit]
    bimp = np.empty(bstart[nlits], np.int32)
    occ = np.empty(ostart[nlits], np.int32)
    bfill = bstart[:nlits].copy()
    ofill = ostart[:nlits].copy()
    cstart = np.zeros(n_long + 1, np.int32)
    clits = np.empty(n_long_lits, np.int32)
    c = 0
    q = 0
    for i in range(m):
        a, b = offsets[i], offsets[i + 1]
        if b - a == 2:
            x, y = to_code(flat[a]), to_code(flat[a + 1])
            bimp[bfill[x ^ 1]] = y
            bfill[x ^ 1] += 1
            bimp[bfill[y ^ 1]] = x
            bfill[y ^ 1] += 1
        elif b - a >= 3:
            for p in range(a, b):
                lit = to_code(flat[p])
                clits[q] = lit
                q += 1
                occ[ofill[lit]] = c
                ofill[lit] += 1
            c += 1
            cstart[c] = q
    # Merge duplicate links (a cell's row and box at-most-one clauses overlap).
    k = 0
    for lit in range(nlits):
        a, b = bstart[lit], bstart[lit + 1]
        seg = np.sort(bimp[a:b])
        bstart[lit] = k
        for t in range(b - a):
            if t > 0 and seg[t] == seg[t - 1]:
                continue
            bimp[k] = seg[t]
            k += 1
    bstart[nlits] = k
    return (bstart, bimp[:k].copy(), ostart, occ, cstart, clits)


@njit(cache=True)
def num_words(G):
    return (G[G_CSTART].shape[0] - 1 + 63) // 64


@njit(cache=True)
def new_state(G, num_vars, track):
    """Return an empty state T: no facts, cones tracked if `track`."""
    m = G[G_CSTART].shape[0] - 1
    val = np.zeros(2 * num_vars, np.int8)  # per literal code: 1 true, -1 false, 0 open
    cone_of = np.zeros(2 * num_vars, np.int32)  # pool row of a true literal's cone
    nfalse = np.zeros(m, np.int32)  # false literals per long clause
    ntrue = np.zeros(m, np.int32)  # true literals per long clause
    pool = np.zeros((2 * num_vars + m + 2, num_words(G)), np.uint64)
    st = np.zeros(NUM_SLOTS, np.int64)
    st[POOL_SIZE] = 1
    st[TRACK] = 1 if track else 0
    return (val, cone_of, nfalse, ntrue, pool, st)


@njit(cache=True)
def copy_state(T):
    return (T[0].copy(), T[1].copy(), T[2].copy(), T[3].copy(), T[4].copy(), T[5].copy())


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True)
def popcount(words):
    total = 0
    for w in range(words.shape[0]):
        x = words[w]  # the classic SWAR bit count
        x = x - ((x >> np.uint64(1)) & _M1)
        x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
        x = (x + (x >> np.uint64(4))) & _M4
        total += int((x * _H01) >> np.uint64(56))
    return total


@njit(cache=True)
def _set_bit(words, c):
    words[c >> 6] |= np.uint64(1) << np.uint64(c & 63)


# --- facts of the state: unit propagation that records cones ---------------------------


@njit(cache=True)
def assert_facts(G, T, lits, cones, queue):
    """Make each literal code of `lits` true with its cone (a pool row) and propagate.

    Return NO_CONFLICT, or the pool row of the contradiction's cone (then the state is
    contradictory and should be dropped).  `queue` has room for 2*num_vars codes."""
    val, cone_of = T[T_VAL], T[T_CONE]
    head = 0
    tail = 0
    for i in range(lits.shape[0]):
        lit = lits[i]
        if val[lit] == 1:
            continue
        if val[lit] == -1:
            return _conflict_pair(T, cones[i], cone_of[lit ^ 1])
        _make_true(G, T, lit, cones[i])
        queue[tail] = lit
        tail += 1
    return _propagate_facts(G, T, queue, head, tail)


@njit(cache=True)
def _make_true(G, T, lit, cone):
    val, cone_of, nfalse, ntrue = T[T_VAL], T[T_CONE], T[T_FALSE], T[T_TRUE]
    val[lit] = 1
    val[lit ^ 1] = -1
    cone_of[lit] = cone
    ostart, occ = G[G_OSTART], G[G_OCC]
    for i in range(ostart[lit], ostart[lit + 1]):
        ntrue[occ[i]] += 1
    f = lit ^ 1
    for i in range(ostart[f], ostart[f + 1]):
        nfalse[occ[i]] += 1


@njit(cache=True)
def _new_cone(T):
    st, pool = T[T_ST], T[T_POOL]
    row = st[POOL_SIZE]
    st[POOL_SIZE] += 1
    pool[row, :] = 0
    return row


@njit(cache=True)
def _conflict_pair(T, a, b):
    if T[T_ST][TRACK] == 0:
        return EMPTY
    pool = T[T_POOL]
    row = _new_cone(T)
    pool[row, :] = pool[a] | pool[b]
    return row


@njit(cache=True)
def _clause_cone(G, T, c):
    """Return a new pool row: constraint c and the cones of its false literals."""
    if T[T_ST][TRACK] == 0:
        return EMPTY
    val, cone_of, pool = T[T_VAL], T[T_CONE], T[T_POOL]
    cstart, clits = G[G_CSTART], G[G_CLITS]
    row = _new_cone(T)
    for p in range(cstart[c], cstart[c + 1]):
        lit = clits[p]
        if val[lit] == -1:
            pool[row, :] |= pool[cone_of[lit ^ 1]]
    _set_bit(pool[row], c)
    return row


@njit(cache=True)
def _propagate_facts(G, T, queue, head, tail):
    val, cone_of = T[T_VAL], T[T_CONE]
    nfalse, ntrue = T[T_FALSE], T[T_TRUE]
    bstart, bimp, ostart, occ = G[G_BSTART], G[G_BIMP], G[G_OSTART], G[G_OCC]
    cstart, clits = G[G_CSTART], G[G_CLITS]
    while head < tail:
        lit = queue[head]
        head += 1
        for i in range(bstart[lit], bstart[lit + 1]):
            q = bimp[i]
            if val[q] == 1:
                continue
            if val[q] == -1:
                return _conflict_pair(T, cone_of[lit], cone_of[q ^ 1])
            _make_true(G, T, q, cone_of[lit])
            queue[tail] = q
            tail += 1
        f = lit ^ 1
        for i in range(ostart[f], ostart[f + 1]):
            c = occ[i]
            if ntrue[c] > 0:
                continue
            size = cstart[c + 1] - cstart[c]
            if nfalse[c] == size:
                return _clause_cone(G, T, c)
            if nfalse[c] == size - 1:
                for p in range(cstart[c], cstart[c + 1]):
                    r = clits[p]
                    if val[r] == 0:
                        _make_true(G, T, r, _clause_cone(G, T, c))
                        queue[tail] = r
                        tail += 1
                        break
    return NO_CONFLICT


# --- one hypothesis: the shortest refutation -------------------------------------------


@njit(cache=True)
def new_scratch(G, num_vars):
    """Return the work arrays of `shortest_refutation` (allocated once per rater)."""
    m = G[G_CSTART].shape[0] - 1
    nlits = 2 * num_vars
    words = num_words(G)
    entries = G[G_BIMP].shape[0] + m + 2
    return (
        np.zeros(nlits, np.int8),  # 0 hval: the hypothesis's own assignments
        np.zeros(nlits, np.int32),  # 1 hcone: pool row (scratch pool) of a hypothesis literal
        np.zeros(nlits, np.int32),  # 2 htrail: literals the hypothesis made true
        np.zeros(m, np.int64),  # 3 cstamp: hypothesis number that last touched a clause
        np.zeros(m, np.int32),  # 4 hfalse: false literals of a touched clause
        np.zeros((m, words), np.uint64),  # 5 union of the cones of those literals
        np.zeros((m + 2, words), np.uint64),  # 6 scratch cone pool (row 0 empty)
        np.full(m + 2, -1, np.int32),  # 7 heads of the buckets (by cone size)
        np.zeros(entries, np.int32),  # 8 next entry in the bucket
        np.zeros(entries, np.int32),  # 9 literal of the entry
        np.zeros(entries, np.int32),  # 10 cone row of the entry
        np.zeros(words, np.uint64),  # 11 the best contradiction's cone
        np.zeros(words, np.uint64),  # 12 work cone
        np.zeros(4, np.int64),  # 13 counters: stamp, pool size, entries, trail size
        *_new_alternatives(G, num_vars),  # 14.. those of `refutation_with_alternatives`
    )


CONES_PER_LITERAL = 4  # cones kept per literal by `refutation_with_alternatives`
ALTERNATIVE_WORDS = 1 << 22  # its cone pool's size cap, in 64-bit words (32 MB)
# Fields of the scratch tuple used by `refutation_with_alternatives`.
(
    X_NCONES,
    X_CONES,
    X_APOOL,
    X_AHEADS,
    X_ANEXT,
    X_ALIT,
    X_AROW,
    X_ACOUNT,
    X_OTHERS,
    X_ODO,
    X_PARTIAL,
) = range(14, 25)
# Slots of X[X_ACOUNT].
A_POOL_SIZE, A_ENTRIES, A_OVERFLOW = range(3)


@njit(cache=True)
def _new_alternatives(G, num_vars):
    m = G[G_CSTART].shape[0] - 1
    words = num_words(G)
    rows = max(2, min(16 * (m + 2), ALTERNATIVE_WORDS // words))
    entries = min(CONES_PER_LITERAL * G[G_BIMP].shape[0] + rows + 2, ALTERNATIVE_WORDS)
    cstart = G[G_CSTART]
    width = 1
    for c in range(m):
        width = max(width, cstart[c + 1] - cstart[c])
    return (
        np.zeros(2 * num_vars, np.int32),  # 14 cones kept per literal
        np.zeros((2 * num_vars, CONES_PER_LITERAL), np.int32),  # 15 their pool rows
        np.zeros((rows, words), np.uint64),  # 16 cone pool (row 0 empty)
        np.full(m + 2, -1, np.int32),  # 17 heads of the buckets (by cone size)
        np.zeros(entries, np.int32),  # 18 next entry in the bucket
        np.zeros(entries, np.int32),  # 19 literal of the entry
        np.zeros(entries, np.int32),  # 20 cone row of the entry
        np.zeros(3, np.int64),  # 21 pool rows in use, entries, overflow (1: arrays full)
        np.zeros(width, np.int32),  # 22 the other false literals of a constraint
        np.zeros(width, np.int32),  # 23 which cone of each is combined (an odometer)
        np.zeros((width + 1, words), np.uint64),  # 24 unions of the cones chosen so far
    )


@njit(cache=True)
def _push(heads, enext, elit, erow, counters, lit, row, size, limit):
    if size > limit:
        return
    e = counters[2]
    counters[2] += 1
    elit[e] = lit
    erow[e] = row
    enext[e] = heads[size]
    heads[size] = e


@njit(cache=True)
def _touch(G, T, cstamp, hfalse, c, stamp, out):
    """The first time hypothesis `stamp` reaches constraint c: start its count of false
    literals at the state's and set out to the union of the cones of the literals the
    state's facts removed (all empty unless the state tracks cones)."""
    if cstamp[c] == stamp:
        return
    cstamp[c] = stamp
    hfalse[c] = T[T_FALSE][c]
    out[:] = 0
    if T[T_ST][TRACK] == 1:
        val, tpool, tcone = T[T_VAL], T[T_POOL], T[T_CONE]
        cstart, clits = G[G_CSTART], G[G_CLITS]
        for p in range(cstart[c], cstart[c + 1]):
            lit = clits[p]
            if val[lit] == -1:
                out |= tpool[tcone[lit ^ 1]]


@njit(cache=True)
def shortest_refutation(G, T, X, z, limit):
    """Return the length of the shortest refutation of the hypothesis `z` (a literal
    code, open in the state) of length <= limit, or limit + 1 when there is none; the
    best contradiction's cone is left in X[11].  The state T is not changed."""
    val = T[T_VAL]
    nfalse, ntrue = T[T_FALSE], T[T_TRUE]
    bstart, bimp, ostart, occ = G[G_BSTART], G[G_BIMP], G[G_OSTART], G[G_OCC]
    cstart, clits = G[G_CSTART], G[G_CLITS]
    hval, hcone, htrail, cstamp, hfalse, union = X[0], X[1], X[2], X[3], X[4], X[5]
    hpool, heads, enext, elit, erow, best_cone, work, counters = (
        X[6],
        X[7],
        X[8],
        X[9],
        X[10],
        X[11],
        X[12],
        X[13],
    )
    track = T[T_ST][TRACK] == 1
    tpool, tcone = T[T_POOL], T[T_CONE]
    limit = min(limit, cstart.shape[0] - 1)  # no cone is larger than all constraints
    counters[0] += 1
    stamp = counters[0]
    counters[1] = 1  # scratch pool: row 0 is the empty cone
    counters[2] = 0
    counters[3] = 0
    hpool[0, :] = 0
    for s in range(limit + 2):
        heads[s] = -1
    best = limit + 1
    _push(heads, enext, elit, erow, counters, z, 0, 0, limit)
    level = 0
    while level < best and level <= limit:
        e = heads[level]
        if e < 0:
            level += 1
            continue
        heads[level] = enext[e]
        r = elit[e]
        row = erow[e]
        if hval[r] == 1 or val[r] == 1:
            continue
        if hval[r] == -1 or val[r] == -1:  # two derivations disagree: a contradiction
            work[:] = hpool[row]
            if hval[r] == -1:
                work |= hpool[hcone[r ^ 1]]
            elif track:
                work |= tpool[tcone[r ^ 1]]
            size = popcount(work)
            if size < best:
                best = size
                best_cone[:] = work
            continue
        hval[r] = 1
        hval[r ^ 1] = -1
        hcone[r] = row
        htrail[counters[3]] = r
        counters[3] += 1
        for i in range(bstart[r], bstart[r + 1]):
            q = bimp[i]
            if hval[q] == 1 or val[q] == 1:
                continue
            _push(heads, enext, elit, erow, counters, q, row, level, limit)
        f = r ^ 1
        for i in range(ostart[f], ostart[f + 1]):
            c = occ[i]
            if ntrue[c] > 0:
                continue
            if cstamp[c] != stamp:
                cstamp[c] = stamp
                hfalse[c] = nfalse[c]
                union[c, :] = 0
                if track:
                    for p in range(cstart[c], cstart[c + 1]):
                        lit = clits[p]
                        if val[lit] == -1:
                            union[c, :] |= tpool[tcone[lit ^ 1]]
            hfalse[c] += 1
            union[c, :] |= hpool[row]
            size = cstart[c + 1] - cstart[c]
            if hfalse[c] < size - 1:
                continue
            work[:] = union[c]
            _set_bit(work, c)
            cone_size = popcount(work)
            if hfalse[c] == size:
                if cone_size < best:
                    best = cone_size
                    best_cone[:] = work
                continue
            if cone_size > limit or cone_size >= best:
                continue
            for p in range(cstart[c], cstart[c + 1]):
                lit = clits[p]  # the one literal of c not false
                if hval[lit] != -1 and val[lit] != -1:
                    if hval[lit] == 0:  # (1: c is satisfied under the hypothesis)
                        new = counters[1]
                        counters[1] += 1
                        hpool[new, :] = work
                        _push(heads, enext, elit, erow, counters, lit, new, cone_size, limit)
                    break
    for t in range(counters[3]):
        lit = htrail[t]
        hval[lit] = 0
        hval[lit ^ 1] = 0
    return best


@njit(cache=True)
def _dominated(ncones, cones, apool, lit, pool, row):
    """Return True when literal lit keeps a cone (ncones, cones: its count and rows in
    apool) that is a subset of pool[row]."""
    for i in range(ncones[lit]):
        a = cones[lit, i]
        subset = True
        for w in range(pool.shape[1]):
            if apool[a, w] & ~pool[row, w]:
                subset = False
                break
        if subset:
            return True
    return False


@njit(cache=True)
def _push_alternative(heads, enext, elit, erow, count, lit, row, size):
    e = count[A_ENTRIES]
    if e == elit.shape[0]:
        count[A_OVERFLOW] = 1
        return
    count[A_ENTRIES] += 1
    elit[e] = lit
    erow[e] = row
    enext[e] = heads[size]
    heads[size] = e


@njit(cache=True)
def _better(best_cone, work, best):
    """Make work the best contradiction if it is smaller; return the best size."""
    size = popcount(work)
    if size < best:
        best_cone[:] = work
        return size
    return best


@njit(cache=True)
def refutation_with_alternatives(G, T, X, z, limit):
    """Return what `shortest_refutation` returns, searching with up to CONES_PER_LITERAL
    cones per literal (module docstring): shorter where a value's first derivation
    overcounts, and never longer: the plain search runs too, below what this one found
    (the cap, and ties met in another order, can make the first cones differ)."""
    found = _search_alternatives(G, T, X, z, limit)
    if X[X_ACOUNT][A_OVERFLOW]:  # its arrays filled: the plain search alone
        return shortest_refutation(G, T, X, z, limit)
    return min(found, shortest_refutation(G, T, X, z, min(limit, found - 1)))


@njit(cache=True)
def _search_alternatives(G, T, X, z, limit):
    val = T[T_VAL]
    ntrue = T[T_TRUE]
    bstart, bimp, ostart, occ = G[G_BSTART], G[G_BIMP], G[G_OSTART], G[G_OCC]
    cstart, clits = G[G_CSTART], G[G_CLITS]
    hval, htrail, cstamp, hfalse, base, work = X[0], X[2], X[3], X[4], X[5], X[12]
    best_cone, counters = X[11], X[13]
    ncones, cones, pool, heads = X[X_NCONES], X[X_CONES], X[X_APOOL], X[X_AHEADS]
    enext, elit, erow, count = X[X_ANEXT], X[X_ALIT], X[X_AROW], X[X_ACOUNT]
    others, odometer, partial = X[X_OTHERS], X[X_ODO], X[X_PARTIAL]
    words = work.shape[0]
    track = T[T_ST][TRACK] == 1
    tpool, tcone = T[T_POOL], T[T_CONE]
    limit = min(limit, cstart.shape[0] - 1)
    counters[0] += 1
    stamp = counters[0]
    counters[3] = 0
    count[A_POOL_SIZE] = 1  # row 0: the empty cone
    count[A_ENTRIES] = 0
    count[A_OVERFLOW] = 0
    pool[0, :] = 0
    heads[: limit + 2] = -1  # every bucket empty
    best = limit + 1
    _push_alternative(heads, enext, elit, erow, count, z, 0, 0)
    level = 0
    while level < best and level <= limit:
        e = heads[level]
        if e < 0:
            level += 1
            continue
        heads[level] = enext[e]
        r = elit[e]
        row = erow[e]
        if val[r] == 1:
            continue
        if val[r] == -1:  # a fact of the state removes it: a contradiction
            work[:] = pool[row]
            if track:
                work |= tpool[tcone[r ^ 1]]
            best = _better(best_cone, work, best)
            continue
        if hval[r] == -1:  # its negation holds: a contradiction with each of its cones
            for i in range(ncones[r ^ 1]):
                a = cones[r ^ 1, i]
                for w in range(words):
                    work[w] = pool[row, w] | pool[a, w]
                best = _better(best_cone, work, best)
            continue
        # Cones come out by size, so a subset of this one came out before it.
        if ncones[r] == CONES_PER_LITERAL or _dominated(ncones, cones, pool, r, pool, row):
            continue
        if hval[r] == 0:
            hval[r] = 1
            hval[r ^ 1] = -1
            htrail[counters[3]] = r
            counters[3] += 1
        first = ncones[r] == 0
        cones[r, ncones[r]] = row
        ncones[r] += 1
        for i in range(bstart[r], bstart[r + 1]):
            q = bimp[i]
            if val[q] == 1 or ncones[q] == CONES_PER_LITERAL:
                continue
            if hval[q] == 1 and _dominated(ncones, cones, pool, q, pool, row):
                continue
            _push_alternative(heads, enext, elit, erow, count, q, row, level)
        f = r ^ 1
        for i in range(ostart[f], ostart[f + 1]):
            c = occ[i]
            if ntrue[c] > 0:
                continue
            if cstamp[c] != stamp:
                _touch(G, T, cstamp, hfalse, c, stamp, base[c])
            if first:
                hfalse[c] += 1
            size = cstart[c + 1] - cstart[c]
            if hfalse[c] < size - 1:
                continue
            # c forces its last literal (or breaks): its cone is c, this cone of f's
            # negation and one cone of each other literal the hypothesis removed; every
            # combination is tried (the new ones are those with this cone).
            n_others = 0
            left = -1
            for p in range(cstart[c], cstart[c + 1]):
                lit = clits[p]
                if lit == f or val[lit] == -1:
                    continue
                if hval[lit] == -1:
                    others[n_others] = lit ^ 1
                    odometer[n_others] = 0
                    n_others += 1
                else:
                    left = lit
            if left >= 0 and ncones[left] == CONES_PER_LITERAL:
                continue
            # Depth first over the choices, partial[j] the union before others[j]'s
            # cone: a partial union already too large cuts all its completions.
            for w in range(words):
                partial[0, w] = base[c, w] | pool[row, w]
            _set_bit(partial[0], c)
            j = 0
            odometer[0] = 0
            while j >= 0:
                if j < n_others and odometer[j] == ncones[others[j]]:
                    j -= 1  # every cone of others[j] tried: back to the one before
                    if j >= 0:
                        odometer[j] += 1
                    continue
                if j < n_others:
                    a = cones[others[j], odometer[j]]
                    for w in range(words):
                        partial[j + 1, w] = partial[j, w] | pool[a, w]
                    if popcount(partial[j + 1]) >= min(limit + 1, best):
                        odometer[j] += 1
                        continue
                    j += 1
                    if j < n_others:
                        odometer[j] = 0
                    continue
                work[:] = partial[n_others]
                if left < 0:
                    best = _better(best_cone, work, best)
                else:
                    new = count[A_POOL_SIZE]
                    if new == pool.shape[0]:
                        count[A_OVERFLOW] = 1
                    else:
                        pool[new, :] = work
                        if not (
                            hval[left] == 1 and _dominated(ncones, cones, pool, left, pool, new)
                        ):
                            count[A_POOL_SIZE] += 1
                            _push_alternative(
                                heads, enext, elit, erow, count, left, new, popcount(work)
                            )
                j -= 1
                if j >= 0:
                    odometer[j] += 1
    for t in range(counters[3]):
        lit = htrail[t]
        hval[lit] = 0
        hval[lit ^ 1] = 0
        ncones[lit] = 0
    return best


@njit(cache=True)
def candidate_lengths(G, T, X, num_candidates, limit, lengths):
    """Fill lengths[v] with the refutation length of the open candidate v+1 (variables
    1..num_candidates) up to the running best, and return that best (the shortest
    length, <= limit) or limit + 1.  Entries of assigned candidates and of candidates
    with no refutation as short as the best so far are set to limit + 1."""
    val = T[T_VAL]
    limit = min(limit, G[G_CSTART].shape[0] - 1)
    best = limit
    found = limit + 1
    for v in range(num_candidates):
        lengths[v] = limit + 1
        z = 2 * v
        if val[z] != 0:
            continue
        length = shortest_refutation(G, T, X, z, best)
        lengths[v] = length
        if length <= best:
            best = length
            found = length
    return found


@njit(cache=True)
def shorter_lengths(G, T, X, num_candidates, limit, lengths):
    """Search every open candidate again with `refutation_with_alternatives`, for
    refutations of length <= limit; set lengths[v] of those found (up to the running
    best; other entries are left as they are) and return the best, or limit + 1."""
    val = T[T_VAL]
    best = limit
    found = limit + 1
    for v in range(num_candidates):
        if val[2 * v] != 0:
            continue
        length = refutation_with_alternatives(G, T, X, 2 * v, best)
        if length <= best:
            lengths[v] = length
            best = length
            found = length
    return found


@njit(cache=True)
def solved(T, num_candidates):
    """Return True when every candidate variable is assigned."""
    val = T[T_VAL]
    for v in range(num_candidates):  # noqa: SIM110 (numba compiles no generator in all())
        if val[2 * v] == 0:
            return False
    return True


# Results of `simplest_first` and `failed_closure`.
SOLVED = 0
CONTRADICTION = 1
STUCK = 2
PAUSED = 3


@njit(cache=True)
def simplest_first(G, T, X, num_candidates, limit, lengths, queue, log, budget):
    """Resolve the state simplest first: while it is not solved, find the shortest
    refutations of candidates (<= limit) and eliminate every candidate refuted by one of
    that length, then propagate (singles).  Return (status, longest step, number of
    steps): SOLVED, CONTRADICTION (the state has no solution), STUCK (no candidate is
    refuted) or PAUSED after `budget` steps (call again to go on); log[s] is the length
    of step s (as many as fit)."""
    limit = min(limit, G[G_CSTART].shape[0] - 1)
    longest = 0
    steps = 0
    one = np.zeros(1, np.int32)
    empty = np.zeros(1, np.int32)
    while not solved(T, num_candidates):
        if steps == budget:
            return PAUSED, longest, steps
        best = candidate_lengths(G, T, X, num_candidates, limit, lengths)
        if best > limit:
            return STUCK, longest, steps
        if best > max(longest, 2):
            # This step would raise the rating: look for shorter refutations the first
            # derivations missed (of length 2 or more: a refutation of length 1 derives
            # nothing).  Only these steps can change the rating: every other
            # step eliminates by refutations no longer than the longest step so far, so
            # the state stays one that steps of that length reach (and any order of such
            # steps reaches the same fixpoint).
            shorter = shorter_lengths(G, T, X, num_candidates, best - 1, lengths)
            if shorter < best:
                best = shorter
        if steps < log.shape[0]:
            log[steps] = best
        steps += 1
        longest = max(longest, best)
        for v in range(num_candidates):
            if lengths[v] == best:  # (one made true by an earlier one: a contradiction)
                one[0] = 2 * v + 1
                if assert_facts(G, T, one, empty, queue) != NO_CONFLICT:
                    return CONTRADICTION, longest, steps
    return SOLVED, longest, steps


@njit(cache=True)
def failed_closure(G, T, X, num_candidates, queue):
    """Eliminate every candidate that unit propagation refutes, in any order, until none
    is left (the failed-literal closure of depth 1, positive hypotheses, no cones
    needed); return SOLVED, CONTRADICTION or STUCK."""
    m = G[G_CSTART].shape[0] - 1
    one = np.zeros(1, np.int32)
    empty = np.zeros(1, np.int32)
    changed = True
    while changed:
        changed = False
        for v in range(num_candidates):
            if T[T_VAL][2 * v] != 0:
                continue
            if shortest_refutation(G, T, X, 2 * v, m) <= m:
                one[0] = 2 * v + 1
                if assert_facts(G, T, one, empty, queue) != NO_CONFLICT:
                    return CONTRADICTION
                changed = True
    return SOLVED if solved(T, num_candidates) else STUCK
