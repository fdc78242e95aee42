/* DPLL on the board (included by board_impl.h, once per instruction set): one model,
 * the count of models up to a cap, the models one after the other, and the minimal
 * puzzles of a removal order, for every geometry the board takes.
 *
 * A node is a board at its propagation fixpoint (the board's singles, so the clause
 * engine's unit propagation: board_impl.h says why).  The search branches on the open
 * cell with the fewest candidates, the lowest cell first among equals, and on its lowest
 * candidate v: "c = v" on a copy of the board pushed on the stack, and once that branch
 * is done "v removed from c" on the board itself, in place (binary branching: the
 * removal propagates too, and the stack holds one board a level, no undo log).  The
 * order depends on the board alone, so the decisions are the same on every machine.
 *
 * Intersections.  With `intersections`, each node is also at the fixpoint of
 * intersections.h's rule (settle_k), a board compared with the one before its test
 * so that only the values that changed are looked at.
 *
 * Lookahead.  With `lookahead` = d > 0, each node is first closed under the failed-
 * literal rule of depth d (the closures of board_impl.h, on G->boards), which prunes
 * more and costs a closure a node.
 *
 * Work.  G->work counts cells placed and decisions; a grid stops at the first node where
 * the work spent on it passes the budget (STATUS_BUDGET), or where the poll finds the
 * clock past its time limit (STATUS_TIME), so a budget gives the same answer everywhere.
 * A count stopped there is a lower bound, never a wrong number.
 */

/* The open cell of board b (at its fixpoint) with the fewest candidates, the lowest
 * first among equals; -1 when every cell is placed.  A cell with two candidates is
 * found by saturating counts (the common case), the others by bit-sliced exact counts. */
INLINE int pick_cell_k(const Board *G, const word *b, const int NN) {
    const int n = NN ? 9 : G->n, W = NN ? 2 : G->W;
    const word *solved = b + (size_t)n * W, *cm = G->cellmask;
    word any = 0;
    for (int x = 0; x < W; x++) {
        word a1 = 0, a2 = 0, a3 = 0;
        for (int v = 0; v < n; v++) {
            const word t = b[(size_t)v * W + x];
            a3 |= a2 & t;
            a2 |= a1 & t;
            a1 |= t;
        }
        const word open = ~solved[x] & cm[x];
        const word two = a2 & ~a3 & open;
        if (two) return x * 64 + ctz(two);
        any |= open;
    }
    if (!any) return -1;
    enum { PLANES = 7 }; /* counts up to 64 */
    int best = n + 1, cell = -1;
    for (int x = 0; x < W; x++) {
        const word open = ~solved[x] & cm[x];
        if (!open) continue;
        word p[PLANES] = {0};
        for (int v = 0; v < n; v++) { /* a bit-sliced adder: p holds each cell's count */
            word carry = b[(size_t)v * W + x] & open;
            for (int j = 0; j < PLANES && carry; j++) {
                const word t = p[j] & carry;
                p[j] ^= carry;
                carry = t;
            }
        }
        for (int k = 3; k < best; k++) {
            word m = open;
            for (int j = 0; j < PLANES; j++) m &= (k >> j & 1) ? p[j] : ~p[j];
            if (m) {
                best = k, cell = x * 64 + ctz(m);
                break;
            }
        }
    }
    return cell;
}

/* The lowest candidate of cell c on board b. */
INLINE int lowest_value_k(const Board *G, const word *b, int c, const int NN) {
    const int n = NN ? 9 : G->n, W = NN ? 2 : G->W;
    const word *col = b + (c >> 6);
    int v = 0;
    while (v < n - 1 && !(col[(size_t)v * W] >> (c & 63) & 1)) v++;
    return v;
}

/* Room on the search stack for `frames` boards; 0, or -1 when memory ran out. */
static int stack_room(Board *G, int64_t frames) {
    if (frames <= G->scap) return 0;
    int64_t cap = G->scap ? G->scap : 16;
    while (cap < frames) cap *= 2;
    word *stack = realloc(G->stack, sizeof(word) * (size_t)cap * G->BW);
    if (!stack) return -1;
    G->stack = stack;
    int32_t *dec = realloc(G->sdec, sizeof(int32_t) * (size_t)cap);
    if (!dec) return -1;
    G->sdec = dec;
    G->scap = cap;
    return 0;
}

/* One grid's search, from the root on G->stack[0] (at its fixpoint) or, resuming, from
 * the model on G->stack[G->stop].  Models are counted in *models up to cap (< 0: no
 * cap); the first is written to `first` (when not NULL) and the first `room` to `out`.
 * Return STATUS_FOUND (cap reached: the stack keeps the last model, to resume from),
 * STATUS_EXHAUSTED, STATUS_BUDGET, STATUS_TIME, STATUS_INTERRUPT or -1 (no memory). */
/* The search's proof log (log_layout.h; G->log, lookahead 0): when the node at level
 * `top` is closed (every branch under it failed, or it was a model), the lemma of its
 * decisions negated, -x(c, v) for each "c = v" of sdec[0 .. top - 1]; when "c = v" at
 * level top fails by propagation, that lemma and -x(c, v).  Each is RUP: under the
 * decisions, the earlier lemmas propagate the level's board (the removals of the
 * branches closed before it), and its branches' lemmas then propagate a conflict.  At
 * a model the lemma is RUP only with the clause excluding that model: a search that
 * counts one model writes a refutation of the formula and that clause, the empty clause
 * (top 0) last. */
static void search_log(Board *G, int64_t top, int64_t code) {
    int64_t head = G->log[LOG_HEAD];
    for (int64_t l = 0; l < top; l++) {
        const int32_t d = G->sdec[l];
        board_log_put(G, &head, -((int64_t)G->n * (d >> 6) + (d & 63) + 1));
    }
    if (code >= 0) board_log_put(G, &head, -((int64_t)G->n * (code >> 6) + (code & 63) + 1));
    board_log_put(G, &head, 0);
    G->log[LOG_HEAD] = head;
}

INLINE int search_k(Board *G, int kind, const CountRun *run, int resume, uint64_t work0,
                    int64_t deadline_ns, int64_t *models, int8_t *first, int8_t *out,
                    int64_t room, Poll *poll, const int NN) {
    const int BW = NN ? 20 : G->BW;
    int64_t top = resume ? G->stop : 0;
    if (resume) goto backtrack;
    for (;;) {
        {
            const int clock_due = deadline_ns >= 0 && core_poll_due(poll);
            if (core_poll(poll)) return STATUS_INTERRUPT;
            if (run->budget >= 0 && G->work - work0 > (uint64_t)run->budget) return STATUS_BUDGET;
            if (clock_due && core_now_ns() > deadline_ns) return STATUS_TIME;
            word *b = G->stack + (size_t)top * BW;
            if (run->lookahead > 0) {
                memcpy(G->boards, b, sizeof(word) * BW);
                const int r = closure(G, kind, run->lookahead, 0, poll, work0, run->budget,
                                      deadline_ns);
                if (r == STATUS_CONFLICT) goto backtrack;
                if (r != STATUS_OPEN) return r;
                memcpy(b, G->boards, sizeof(word) * BW);
            }
            const int c = pick_cell_k(G, b, NN);
            if (c < 0) { /* a model */
                if (*models == 0 && first) filled(G, kind, b, first);
                if (*models < room) filled(G, kind, b, out + (size_t)*models * G->cells);
                ++*models;
                if (run->cap >= 0 && *models >= run->cap) {
                    G->stop = top;
                    return STATUS_FOUND;
                }
                goto backtrack;
            }
            if (stack_room(G, top + 2) < 0) return -1;
            b = G->stack + (size_t)top * BW; /* the stack may have moved */
            const int v = lowest_value_k(G, b, c, NN);
            G->sdec[top] = (int32_t)(c * 64 + v);
            G->decisions++;
            G->work++;
            word *next = b + BW;
            memcpy(next, b, sizeof(word) * BW);
            if (test_k(G, next, c, v, 0, NN) == STATUS_OPEN &&
                (!run->intersections || settle_k(G, next, b, NN) == STATUS_OPEN)) {
                top++;
                continue;
            }
            G->conflicts++;
            if (G->log) search_log(G, top, c * 64 + v);
            goto right; /* "c = v" failed: "v removed from c", on this level's board */
        }
    backtrack:
        if (G->log) search_log(G, top, -1);
        if (top == 0) return STATUS_EXHAUSTED;
        top--;
    right: {
        const int32_t d = G->sdec[top];
        word *b = G->stack + (size_t)top * BW, *before = b + BW; /* the child's place */
        if (run->intersections) memcpy(before, b, sizeof(word) * BW);
        if (test_k(G, b, d >> 6, d & 63, 1, NN) != STATUS_OPEN ||
            (run->intersections && settle_k(G, b, before, NN) != STATUS_OPEN)) {
            G->conflicts++;
            goto backtrack;
        }
    }
    }
}

static int search_kind(Board *G, int kind, const CountRun *run, int resume, uint64_t work0,
                       int64_t deadline_ns, int64_t *models, int8_t *first, int8_t *out,
                       int64_t room, Poll *poll) {
    if (kind == STD9)
        return search_k(G, kind, run, resume, work0, deadline_ns, models, first, out, room, poll,
                        STD9);
    if (kind)
        return search_k(G, kind, run, resume, work0, deadline_ns, models, first, out, room, poll,
                        9);
    return search_k(G, kind, run, resume, work0, deadline_ns, models, first, out, room, poll, 0);
}

/* test_k with the constants of G's kind. */
static int test_kind(Board *G, int kind, word *b, int c, int v, int negative) {
    if (kind == STD9) return test_k(G, b, c, v, negative, STD9);
    return kind ? test_k(G, b, c, v, negative, 9) : test_k(G, b, c, v, negative, 0);
}

/* Count the models of each grid of run (board.h: CountRun).  STATUS_OPEN, STATUS_INTERRUPT
 * or -1 (no memory); a grid's outcome is in run->status. */
static int count(Board *G, const CountRun *run, Poll *poll) {
    const int kind = kind_of(G);
    if (stack_room(G, 2) < 0) return -1;
    for (int64_t g = 0; g < run->count; g++) {
        const int resume = run->resume && g == 0;
        if (core_poll(poll)) return STATUS_INTERRUPT;
        const uint64_t w0 = G->work, d0 = G->decisions, c0 = G->conflicts;
        const int64_t t0 = run->ns || run->limit_ns > 0 ? core_now_ns() : 0;
        int64_t deadline_ns = -1;
        if (run->limit_ns > 0) {
            deadline_ns = run->limit_ns > INT64_MAX - t0 ? INT64_MAX : t0 + run->limit_ns;
            core_poll_soon(poll);
        }
        int8_t *first = run->solutions ? run->solutions + (size_t)g * G->cells : NULL;
        if (first) memset(first, 0, (size_t)G->cells);
        int64_t found = 0;
        int r;
        if (G->log_at) G->log_at[g] = G->log[LOG_HEAD];
        if (resume) {
            r = search_kind(G, kind, run, 1, w0, deadline_ns, &found, first, run->out, run->room,
                            poll);
        } else {
            const int started = start_board(G, kind, G->stack, run->grids + (size_t)g * G->cells);
            if (started < 0)
                r = STATUS_BAD;
            else if (!started) {
                r = STATUS_EXHAUSTED; /* the givens contradict: no model */
                if (G->log) search_log(G, 0, -1); /* the empty clause, by propagation */
            }
            else if (run->exclude && run->exclude[g] >= 0 &&
                     test_kind(G, kind, G->stack, run->exclude[g] >> 6, run->exclude[g] & 63, 1) !=
                         STATUS_OPEN)
                r = STATUS_EXHAUSTED; /* without that candidate: no model */
            else if (run->intersections && settle_kind(G, kind, G->stack) != STATUS_OPEN)
                r = STATUS_EXHAUSTED;
            else
                r = search_kind(G, kind, run, 0, w0, deadline_ns, &found, first, run->out,
                                run->room, poll);
        }
        if (r == STATUS_INTERRUPT || r < 0) return r;
        if (G->log_at) G->log_at[g + 1] = G->log[LOG_HEAD];
        G->resumable = r == STATUS_FOUND && run->count == 1;
        run->models[g] = found;
        run->status[g] = (int8_t)r;
        if (run->decisions) run->decisions[g] = (int64_t)(G->decisions - d0);
        if (run->conflicts) run->conflicts[g] = (int64_t)(G->conflicts - c0);
        if (run->work) run->work[g] = (int64_t)(G->work - w0);
        if (run->ns) run->ns[g] = core_now_ns() - t0;
    }
    return STATUS_OPEN;
}

/* The minimal puzzles of run (board.h: MinimalRun): each grid's cells emptied in its
 * order when its puzzle keeps exactly one solution.  A puzzle P with one solution S
 * less the given v of cell c keeps one exactly when no solution has c != v (a
 * solution with c = v is one of P, so it is S): each test is the search for one
 * solution of P - c with v removed from c, which never walks S's subtree and stops at
 * the first solution when the given is needed.  The grid must have one solution (a
 * full grid has): one that has several is returned as it is (every given is then
 * needed: the puzzle less one has several too).  STATUS_OPEN, STATUS_INTERRUPT or -1. */
static int minimal(Board *G, const MinimalRun *run, Poll *poll) {
    const int kind = kind_of(G);
    if (stack_room(G, 2) < 0) return -1;
    const CountRun one = {.cap = 1, .budget = run->budget, .lookahead = run->lookahead,
                          .intersections = run->intersections};
    const CountRun two = {.cap = 2, .budget = run->budget, .lookahead = run->lookahead,
                          .intersections = run->intersections};
    const int settle = run->intersections;
    for (int64_t g = 0; g < run->count; g++) {
        int8_t *puzzle = run->out + (size_t)g * G->cells;
        const int32_t *order = run->orders + (size_t)g * G->cells;
        memcpy(puzzle, run->grids + (size_t)g * G->cells, (size_t)G->cells);
        int64_t over = 0, tests = 1, found = 0;
        int r = STATUS_BAD;
        if (start_board(G, kind, G->stack, puzzle) > 0 &&
            (!settle || settle_kind(G, kind, G->stack) == STATUS_OPEN))
            r = search_kind(G, kind, &two, 0, G->work, -1, &found, NULL, NULL, 0, poll);
        if (r == STATUS_INTERRUPT || r < 0) return r;
        over += r == STATUS_BUDGET;
        const int unique = r == STATUS_EXHAUSTED && found == 1;
        for (int i = 0; unique && i < G->cells; i++) {
            const int c = order[i];
            if (!puzzle[c]) continue;
            const int8_t given = puzzle[c];
            puzzle[c] = 0;
            found = 0;
            r = STATUS_EXHAUSTED; /* no solution with c != given: c's given is not needed */
            tests++;
            if (start_board(G, kind, G->stack, puzzle) > 0 &&
                test_kind(G, kind, G->stack, c, given - 1, 1) == STATUS_OPEN &&
                (!settle || settle_kind(G, kind, G->stack) == STATUS_OPEN))
                r = search_kind(G, kind, &one, 0, G->work, -1, &found, NULL, NULL, 0, poll);
            if (r == STATUS_INTERRUPT || r < 0) return r;
            if (r == STATUS_BUDGET) over++;
            if (!(r == STATUS_EXHAUSTED && found == 0)) puzzle[c] = given; /* needed */
        }
        run->tests[g] = tests;
        run->over[g] = over;
    }
    G->resumable = 0;
    return STATUS_OPEN;
}
