/*
 * svmeval.metrics._ovo: one score per class from LIBSVM's one-vs-one decision values, in one
 * pass over a block of rows, for any number of classes.
 *
 * The score is scikit-learn's _ovr_decision_function with LIBSVM's vote:
 *     score_c = votes_c + s_c / (3 (|s_c| + 1))
 * over the canonical pairs (i, j), i < j, of the k classes in lexicographic order, where the
 * canonical value d' is positive towards class i; d' > 0 votes i, otherwise j (svm_predict's
 * rule); s_i += d', s_j -= d'. The pairs are visited in that order and each sum is accumulated
 * in that order, so the result is bit for bit that of the numpy loop over the pairs
 * (compiled without floating-point contraction).
 *
 * The decision values are the model's own columns: a model trained on M classes in its own
 * label order has M(M-1)/2 columns, pair (a, b), a < b, at column a(2M - a - 1)/2 + b - a - 1,
 * positive towards a. pos[c] is the model's index of canonical class c, or -1 when the model
 * never saw it (a fold without that class): its pairs' values are NaN, as are then the scores.
 *
 * Memory: the k sums and votes of one row (two arrays of k doubles given by the caller). Plain C
 * called through ctypes, which releases the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stddef.h>

/* rows x (M(M-1)/2) model values -> rows x k scores; sums and votes: k doubles of scratch each */
void
svmeval_ovo_scores(const double *dec, long rows, long n_model, const long *pos, long k,
                   double *scores, double *sums, double *votes)
{
    const long n_pairs = n_model * (n_model - 1) / 2;
    for (long r = 0; r < rows; r++) {
        const double *row = dec + r * n_pairs;
        for (long c = 0; c < k; c++)
            sums[c] = votes[c] = 0.0;
        for (long i = 0; i < k; i++) {
            const long a = pos[i];
            for (long j = i + 1; j < k; j++) {
                const long b = pos[j];
                double d;
                if (a < 0 || b < 0)
                    d = NAN;
                else if (a < b)
                    d = row[a * (2 * n_model - a - 1) / 2 + b - a - 1];
                else
                    d = -row[b * (2 * n_model - b - 1) / 2 + a - b - 1];
                if (d > 0)
                    votes[i] += 1.0;
                else
                    votes[j] += 1.0;
                sums[i] += d;
                sums[j] -= d;
            }
        }
        double *out = scores + r * k;
        for (long c = 0; c < k; c++)
            out[c] = votes[c] + sums[c] / (3 * (fabs(sums[c]) + 1));
    }
}

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "svmeval.metrics._ovo",
    "Class scores from one-vs-one decision values (a C function called through ctypes).", -1,
    NULL,
};

PyMODINIT_FUNC
PyInit__ovo(void)
{
    return PyModule_Create(&moduledef);
}
