/*
 * svmeval.cv._kernel: whole kernel matrices in LIBSVM's precomputed-kernel layout (-t 4), computed
 * with LIBSVM's own arithmetic so that training and predicting on them gives bit for bit what
 * LIBSVM computes from the features.
 *
 * LIBSVM evaluates a kernel two ways (svm.cpp):
 *   training (Kernel::kernel_function, for the Q matrix):
 *     linear   dot(x_i, x_j)
 *     poly     powi(gamma * dot(x_i, x_j) + coef0, degree)
 *     rbf      exp(-gamma * (x_square[i] + x_square[j] - 2 * dot(x_i, x_j))),
 *              x_square[i] = dot(x_i, x_i)
 *     sigmoid  tanh(gamma * dot(x_i, x_j) + coef0)
 *   prediction (Kernel::k_function, for a test row against each support vector): the same,
 *     except rbf: the squared differences summed over the union of the two index lists in
 *     ascending index order, then exp(-gamma * sum).
 * dot is the sparse merge over both rows' indices in order. Every expression here keeps that
 * order of operations; the file is compiled with -ffp-contract=off (no fused multiply-add) and
 * calls the C library's exp and tanh, as LIBSVM does. Each value is symmetric in i and j (IEEE
 * addition and multiplication commute, and both loops visit the same terms in the same order
 * whichever row comes first), so one triangle is computed and mirrored.
 *
 * Layout (svm-train's precomputed format): row i is n + 2 nodes,
 *   {0, i + 1} {1, K(i, 0)} ... {n, K(i, n - 1)} {-1, 0}
 * Node 0 is the row's serial number, which is how LIBSVM finds K(i, j): x[i][serial of j].
 *
 * The functions are plain C, called through ctypes (which releases the GIL), so several threads
 * can fill disjoint sets of rows of one matrix at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int index;
    double value;
} svmeval_node;

enum { LINEAR = 0, POLY = 1, RBF = 2, SIGMOID = 3 };

/* Kernel::dot */
static double
dot(const svmeval_node *px, const svmeval_node *py)
{
    double sum = 0;
    while (px->index != -1 && py->index != -1) {
        if (px->index == py->index) {
            sum += px->value * py->value;
            ++px;
            ++py;
        }
        else {
            if (px->index > py->index)
                ++py;
            else
                ++px;
        }
    }
    return sum;
}

/* svm.cpp's powi */
static double
powi(double base, int times)
{
    double tmp = base, ret = 1.0;
    for (int t = times; t > 0; t /= 2) {
        if (t % 2 == 1)
            ret *= tmp;
        tmp = tmp * tmp;
    }
    return ret;
}

/* Kernel::k_function's rbf sum of squared differences */
static double
squared_distance(const svmeval_node *x, const svmeval_node *y)
{
    double sum = 0;
    while (x->index != -1 && y->index != -1) {
        if (x->index == y->index) {
            double d = x->value - y->value;
            sum += d * d;
            ++x;
            ++y;
        }
        else {
            if (x->index > y->index) {
                sum += y->value * y->value;
                ++y;
            }
            else {
                sum += x->value * x->value;
                ++x;
            }
        }
    }
    while (x->index != -1) {
        sum += x->value * x->value;
        ++x;
    }
    while (y->index != -1) {
        sum += y->value * y->value;
        ++y;
    }
    return sum;
}

/* x_square[i] = dot(x_i, x_i) for every row, as the Kernel constructor computes it */
void
svmeval_x_square(const svmeval_node *const *x, long n, double *out)
{
    for (long i = 0; i < n; i++)
        out[i] = dot(x[i], x[i]);
}

static double
kernel_value(const svmeval_node *xi, const svmeval_node *xj, double sq_i, double sq_j,
             int kernel_type, int degree, double gamma, double coef0, int prediction)
{
    switch (kernel_type) {
    case LINEAR:
        return dot(xi, xj);
    case POLY:
        return powi(gamma * dot(xi, xj) + coef0, degree);
    case RBF:
        if (prediction)
            return exp(-gamma * squared_distance(xi, xj));
        return exp(-gamma * (sq_i + sq_j - 2 * dot(xi, xj)));
    case SIGMOID:
        return tanh(gamma * dot(xi, xj) + coef0);
    default:
        return 0;
    }
}

/*
 * Fill rows first .. last - 1 (< n) of the n x (n + 2) node matrix ``out``: each such row i gets
 * its serial node, its terminator and K(i, j) for j >= i, mirrored into row j. Calls with disjoint
 * row ranges write disjoint nodes. Consecutive rows mirror into neighbouring nodes of each row
 * j, so a range of consecutive rows reuses the cache lines it mirrors into. ``x_square`` is used by the training
 * rbf only (may be NULL otherwise). ``prediction``: k_function's arithmetic instead of
 * kernel_function's.
 */
/*
 * The same values without the sparse merge's unpredictable branches, where every stored value
 * is finite (scan_rows):
 *   dot(x_i, x_j) = the sum, over x_j's indices in ascending order, of dense_i[index] * value,
 *     dense_i being x_i scattered over its indices, zero elsewhere. The products at common
 *     indices are dot's, in dot's order; the others are +-0, and adding a zero leaves the sum
 *     as it is (the sum starts at +0 and a sum of rounded terms is never -0 but from -0 terms
 *     alone, which leave it +0), so the result is dot's, bit for bit.
 *   squared_distance(x_i, x_j) = the sum over every index 1 .. max in ascending order of
 *     (dense_i[k] - dense_j[k])^2: at an index of one row only, (v - 0)^2 and (0 - v)^2 are
 *     v * v; at an index of neither, the term is +0. Used where the rows are dense enough that
 *     the loop over every index is shorter than the merge (DENSE_FACTOR).
 * A value that is not finite (0 * inf is NaN, not the merge's skipped term) keeps the merge.
 */
#define SCATTER_MAX_INDEX (1L << 22)
#define DENSE_FACTOR 4
#define DENSE_MAX_BYTES (64L << 20)

static int
scan_rows(const svmeval_node *const *x, long n, long *max_index, long *stored)
{
    long top = 0, count = 0;
    for (long i = 0; i < n; i++) {
        for (const svmeval_node *p = x[i]; p->index != -1; ++p) {
            if (!isfinite(p->value) || p->index < 0)
                return 0;
            if (p->index > top)
                top = p->index;
            ++count;
        }
    }
    *max_index = top;
    *stored = count;
    return 1;
}

static double
dot_scattered(const double *dense_i, const svmeval_node *py)
{
    double sum = 0;
    for (; py->index != -1; ++py)
        sum += dense_i[py->index] * py->value;
    return sum;
}

static double
squared_distance_dense(const double *a, const double *b, long width)
{
    double sum = 0;
    for (long k = 0; k < width; k++) {
        double d = a[k] - b[k];
        sum += d * d;
    }
    return sum;
}

static void
scatter(double *dense, const svmeval_node *p)
{
    for (; p->index != -1; ++p)
        dense[p->index] = p->value;
}

static void
unscatter(double *dense, const svmeval_node *p)
{
    for (; p->index != -1; ++p)
        dense[p->index] = 0;
}

static void
put(svmeval_node *out, long width, long i, long j, double k)
{
    svmeval_node *row = out + i * width;
    row[1 + j].index = (int)(j + 1);
    row[1 + j].value = k;
    svmeval_node *mirror = out + j * width + 1 + i;
    mirror->index = (int)(i + 1);
    mirror->value = k;
}

void
svmeval_kernel_fill(const svmeval_node *const *x, long n, int kernel_type, int degree,
                    double gamma, double coef0, const double *x_square, int prediction,
                    svmeval_node *out, long first, long last)
{
    const long width = n + 2;
    if (last > n)
        last = n;
    long top = 0, stored = 0;
    int finite = scan_rows(x, n, &top, &stored) && top < SCATTER_MAX_INDEX;
    const long dims = top + 1; /* dense arrays are indexed by feature index, 0 unused */
    int rbf_prediction = kernel_type == RBF && prediction;
    double *dense = NULL; /* scattered rows: row i's, or (rbf prediction) rows first .. n - 1 */
    long dense_rows = 0;
    if (finite && rbf_prediction && n > 0 && top <= DENSE_FACTOR * (stored / n + 1) &&
        (n - first) * dims * (long)sizeof(double) <= DENSE_MAX_BYTES) {
        dense_rows = n - first;
        dense = calloc((size_t)(dense_rows * dims), sizeof(double));
        if (dense)
            for (long j = first; j < n; j++)
                scatter(dense + (j - first) * dims, x[j]);
    }
    else if (finite && !rbf_prediction) {
        dense = calloc((size_t)dims, sizeof(double));
    }
    for (long i = first; i < last; i++) {
        svmeval_node *row = out + i * width;
        row[0].index = 0;
        row[0].value = (double)(i + 1);
        row[n + 1].index = -1;
        row[n + 1].value = 0;
        const double sq_i = x_square ? x_square[i] : 0;
        if (dense && dense_rows) { /* rbf prediction on dense enough rows */
            const double *a = dense + (i - first) * dims;
            for (long j = i; j < n; j++)
                put(out, width, i, j,
                    exp(-gamma * squared_distance_dense(a, dense + (j - first) * dims, dims)));
            continue;
        }
        if (dense) { /* every kernel on dot: row i scattered */
            scatter(dense, x[i]);
            for (long j = i; j < n; j++) {
                double d = dot_scattered(dense, x[j]), k;
                switch (kernel_type) {
                case LINEAR:
                    k = d;
                    break;
                case POLY:
                    k = powi(gamma * d + coef0, degree);
                    break;
                case RBF:
                    k = exp(-gamma * (sq_i + (x_square ? x_square[j] : 0) - 2 * d));
                    break;
                case SIGMOID:
                    k = tanh(gamma * d + coef0);
                    break;
                default:
                    k = 0;
                    break;
                }
                put(out, width, i, j, k);
            }
            unscatter(dense, x[i]);
            continue;
        }
        for (long j = i; j < n; j++) {
            const double sq_j = x_square ? x_square[j] : 0;
            put(out, width, i, j,
                kernel_value(x[i], x[j], sq_i, sq_j, kernel_type, degree, gamma, coef0,
                             prediction));
        }
    }
    free(dense);
}

/*
 * One fold's RBF distances, for every gamma of a grid: the part of LIBSVM's arithmetic that does
 * not depend on gamma, kept so that each gamma's matrix is exp(-gamma * d) of it, the value
 * svmeval_kernel_fill computes, bit for bit (the same d, then the same product and exp).
 *   dtrain[a * ntr + b] = x_square[i] + x_square[j] - 2 * dot(x_i, x_j), i = train[a], j = train[b]
 *     (kernel_function's, for training; computed for b >= a and mirrored);
 *   dpred[t * ntr + b] = squared_distance(x_i, x_j), i = test[t], j = train[b] (k_function's, for
 *     predicting a test row against a support vector, which is a training row).
 * The dot products take the scattered path and the squared distances the dense one under the
 * conditions svmeval_kernel_fill uses (the same sums, bit for bit, as its comment shows).
 * Where the rows are dense enough for the dense squared distances, the dot products are dense
 * too: the sum over every index 0 .. max of dense_i[k] * dense_j[k], in ascending order, whose
 * terms at an index x_j does not store are +-0 (dot_scattered's sum, bit for bit, as above). Both
 * dense sums are then taken for BLOCK training rows at once: BLOCK separate sums, each over
 * the indices in ascending order as alone (the same bits), whose additions the processor
 * overlaps instead of waiting for each before the next.
 * Returns 0 where memory for the scattered rows cannot be had (nothing is then written).
 */
#define MIRROR_BLOCK 64
#define BLOCK 4

/* out[0 .. BLOCK - 1] = the dense dot of a with each of the BLOCK rows from b (dims apart) */
static void
dots_dense(const double *a, const double *b, long dims, double *out)
{
    const double *b0 = b, *b1 = b + dims, *b2 = b + 2 * dims, *b3 = b + 3 * dims;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (long k = 0; k < dims; k++) {
        const double v = a[k];
        s0 += v * b0[k];
        s1 += v * b1[k];
        s2 += v * b2[k];
        s3 += v * b3[k];
    }
    out[0] = s0;
    out[1] = s1;
    out[2] = s2;
    out[3] = s3;
}

static double
dot_dense(const double *a, const double *b, long dims)
{
    double sum = 0;
    for (long k = 0; k < dims; k++)
        sum += a[k] * b[k];
    return sum;
}

/* out[0 .. BLOCK - 1] = squared_distance_dense of a to each of the BLOCK rows from b */
static void
squared_distances_dense(const double *a, const double *b, long dims, double *out)
{
    const double *b0 = b, *b1 = b + dims, *b2 = b + 2 * dims, *b3 = b + 3 * dims;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (long k = 0; k < dims; k++) {
        const double v = a[k];
        double d0 = v - b0[k], d1 = v - b1[k], d2 = v - b2[k], d3 = v - b3[k];
        s0 += d0 * d0;
        s1 += d1 * d1;
        s2 += d2 * d2;
        s3 += d3 * d3;
    }
    out[0] = s0;
    out[1] = s1;
    out[2] = s2;
    out[3] = s3;
}

int
svmeval_fold_distances(const svmeval_node *const *x, long n, const long *train, long ntr,
                       const long *test, long nte, const double *x_square, double *dtrain,
                       double *dpred)
{
    long top = 0, stored = 0;
    int finite = scan_rows(x, n, &top, &stored) && top < SCATTER_MAX_INDEX;
    const long dims = top + 1;
    double *dense = NULL; /* the training rows scattered, one after the other, then a test row */
    if (finite && n > 0 && top <= DENSE_FACTOR * (stored / n + 1) &&
        (ntr + 1) * dims * (long)sizeof(double) <= DENSE_MAX_BYTES) {
        dense = calloc((size_t)((ntr + 1) * dims), sizeof(double));
        if (!dense)
            return 0;
        for (long b = 0; b < ntr; b++)
            scatter(dense + b * dims, x[train[b]]);
    }
    double *row = dense ? dense + ntr * dims : NULL; /* a row scattered, alone */
    if (finite && !row) {
        row = calloc((size_t)dims, sizeof(double));
        if (!row)
            return 0;
    }
    double sums[BLOCK];
    for (long a = 0; a < ntr; a++) {
        const svmeval_node *xi = x[train[a]];
        const double sq_i = x_square[train[a]];
        double *out = dtrain + a * ntr;
        long b = a;
        if (dense) {
            const double *ra = dense + a * dims;
            for (; b + BLOCK <= ntr; b += BLOCK) {
                dots_dense(ra, dense + b * dims, dims, sums);
                for (int m = 0; m < BLOCK; m++)
                    out[b + m] = sq_i + x_square[train[b + m]] - 2 * sums[m];
            }
            for (; b < ntr; b++)
                out[b] = sq_i + x_square[train[b]] - 2 * dot_dense(ra, dense + b * dims, dims);
            continue;
        }
        if (row)
            scatter(row, xi);
        for (; b < ntr; b++) {
            const svmeval_node *xj = x[train[b]];
            double d = row ? dot_scattered(row, xj) : dot(xi, xj);
            out[b] = sq_i + x_square[train[b]] - 2 * d;
        }
        if (row)
            unscatter(row, xi);
    }
    /* the lower triangle mirrored block by block (each block's reads and writes in cache) */
    for (long a0 = 0; a0 < ntr; a0 += MIRROR_BLOCK)
        for (long b0 = 0; b0 <= a0; b0 += MIRROR_BLOCK)
            for (long a = a0; a < a0 + MIRROR_BLOCK && a < ntr; a++)
                for (long b = b0; b < b0 + MIRROR_BLOCK && b < a; b++)
                    dtrain[a * ntr + b] = dtrain[b * ntr + a];
    for (long t = 0; t < nte; t++) {
        const svmeval_node *xi = x[test[t]];
        double *out = dpred + t * ntr;
        if (!dense) {
            for (long b = 0; b < ntr; b++)
                out[b] = squared_distance(xi, x[train[b]]);
            continue;
        }
        scatter(row, xi);
        long b = 0;
        for (; b + BLOCK <= ntr; b += BLOCK) {
            squared_distances_dense(row, dense + b * dims, dims, sums);
            for (int m = 0; m < BLOCK; m++)
                out[b + m] = sums[m];
        }
        for (; b < ntr; b++)
            out[b] = squared_distance_dense(row, dense + b * dims, dims);
        unscatter(row, xi);
    }
    if (dense)
        free(dense);
    else
        free(row);
    return 1;
}

/*
 * exp(-gamma * d) with the last values remembered by d's bits: a grid's data often has few
 * distinct distances (binary features: whole numbers), and exp of the same d is the same bits.
 * ``minus_gamma`` is -gamma (negation is exact: the product is -gamma * d's, bit for bit). An
 * entry never matches before it is set (NaN compares unequal); +0 and -0 compare equal and both
 * give exp(+-0) = 1.
 */
#define EXP_CACHE 4096

typedef struct {
    double d, value;
} svmeval_exp_entry;

static double
remembered_exp(svmeval_exp_entry *cache, double minus_gamma, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    svmeval_exp_entry *e = cache + ((bits ^ (bits >> 23) ^ (bits >> 47)) & (EXP_CACHE - 1));
    if (e->d == d)
        return e->value;
    e->d = d;
    e->value = exp(minus_gamma * d);
    return e->value;
}

/*
 * One gamma's matrix of a fold, in the precomputed layout (n rows of n + 2 nodes, every row's
 * serial node and terminator written): training row i = train[a] holds exp(-gamma * dtrain) at
 * each training row's serial, test row i = test[t] exp(-gamma * dpred) at each training row's
 * serial, written in row-number order (``by_row``: the positions in ``train`` sorted by row
 * number, so that each row is written front to back); nothing else of a row is ever read (training looks up training rows' serials only, a
 * test row is predicted against support vectors, which are training rows).
 */
int
svmeval_fold_fill(long n, const long *train, const long *by_row, long ntr, const long *test,
                  long nte, const double *dtrain, const double *dpred, double gamma,
                  svmeval_node *out)
{
    const long width = n + 2;
    const double minus_gamma = -gamma;
    svmeval_exp_entry *cache = malloc(EXP_CACHE * sizeof *cache);
    if (!cache)
        return 0;
    for (long k = 0; k < EXP_CACHE; k++) {
        cache[k].d = NAN;
        cache[k].value = 0;
    }
    for (long i = 0; i < n; i++) {
        svmeval_node *row = out + i * width;
        row[0].index = 0;
        row[0].value = (double)(i + 1);
        row[n + 1].index = -1;
        row[n + 1].value = 0;
    }
    for (long a = 0; a < ntr; a++) { /* row by row: K(i, j) and K(j, i) are the same bits */
        svmeval_node *row = out + train[a] * width;
        const double *d = dtrain + a * ntr;
        for (long k = 0; k < ntr; k++) { /* by_row: the training rows by row number */
            const long b = by_row[k];
            row[1 + train[b]].index = (int)(train[b] + 1);
            row[1 + train[b]].value = remembered_exp(cache, minus_gamma, d[b]);
        }
    }
    for (long t = 0; t < nte; t++) {
        svmeval_node *row = out + test[t] * width;
        for (long k = 0; k < ntr; k++) {
            const long b = by_row[k];
            row[1 + train[b]].index = (int)(train[b] + 1);
            row[1 + train[b]].value = remembered_exp(cache, minus_gamma, dpred[t * ntr + b]);
        }
    }
    free(cache);
    return 1;
}

/* One kernel value, for tests: LIBSVM's training (prediction = 0) or prediction arithmetic. */
double
svmeval_kernel_value(const svmeval_node *xi, const svmeval_node *xj, int kernel_type, int degree,
                     double gamma, double coef0, int prediction)
{
    double sq_i = kernel_type == RBF && !prediction ? dot(xi, xi) : 0;
    double sq_j = kernel_type == RBF && !prediction ? dot(xj, xj) : 0;
    return kernel_value(xi, xj, sq_i, sq_j, kernel_type, degree, gamma, coef0, prediction);
}

/* LIBSVM's own svm_predict_values (``predict_values``, the official library's function) on n
 * rows, row i's node array at rows[i], its n_dec decision values written at dec + i * n_dec and
 * its label at labels[i]: the loop svm_predict runs per row, here over many rows in one call
 * (through ctypes, without the GIL: threads predicting side by side never wait for Python). */
typedef double (*svmeval_predict_values_fn)(const void *model, const void *x, double *dec);

void
svmeval_predict_rows(svmeval_predict_values_fn predict_values, const void *model,
                     const void *const *rows, long n, double *dec, long n_dec, double *labels)
{
    for (long i = 0; i < n; i++) {
        labels[i] = predict_values(model, rows[i], dec + i * n_dec);
    }
}

/* LIBSVM's shuffle in svm_cross_validation, drawing from C's rand() as it does: n samples'
 * indices (one class's where the folds are stratified, else all), for i = 0 .. n-1 swapped with
 * index i + rand() % (n - i); n draws in LIBSVM's order, one call for the whole loop. */
void
svmeval_shuffle(int64_t *index, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t j = i + rand() % (n - i);
        int64_t t = index[i];
        index[i] = index[j];
        index[j] = t;
    }
}

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "svmeval.cv._kernel",
    "LIBSVM's kernel arithmetic over whole matrices, and its prediction over many rows (C "
    "functions called through ctypes).",
    -1,
    NULL,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    return PyModule_Create(&moduledef);
}
