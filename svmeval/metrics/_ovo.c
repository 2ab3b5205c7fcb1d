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
 * Memory: the k sums and votes of one row. Called from Python as scores(dec, rows, n_model, pos,
 * k, out) on contiguous buffers (float64, float64, int64), with the GIL released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>

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

static PyObject *
py_scores(PyObject *self, PyObject *args)
{
    Py_buffer dec, pos, out;
    Py_ssize_t rows, n_model, k;
    if (!PyArg_ParseTuple(args, "y*nny*nw*", &dec, &rows, &n_model, &pos, &k, &out))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t pairs = n_model * (n_model - 1) / 2;
    if (rows < 0 || n_model < 0 || k < 0 || dec.len != rows * pairs * (Py_ssize_t)sizeof(double)
        || pos.len != k * (Py_ssize_t)sizeof(int64_t)
        || out.len != rows * k * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "scores: buffer sizes do not match rows, n_model, k");
        goto done;
    }
    double *scratch = PyMem_RawMalloc(2 * (size_t)(k ? k : 1) * sizeof(double));
    long *lpos = PyMem_RawMalloc((size_t)(k ? k : 1) * sizeof(long));
    if (!scratch || !lpos) {
        PyMem_RawFree(scratch);
        PyMem_RawFree(lpos);
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < k; c++)
        lpos[c] = (long)((const int64_t *)pos.buf)[c];
    Py_BEGIN_ALLOW_THREADS
    svmeval_ovo_scores((const double *)dec.buf, (long)rows, (long)n_model, lpos, (long)k,
                       (double *)out.buf, scratch, scratch + k);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(scratch);
    PyMem_RawFree(lpos);
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&dec);
    PyBuffer_Release(&pos);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"scores", py_scores, METH_VARARGS,
     "scores(dec, rows, n_model, pos, k, out): class scores into out (contiguous buffers)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "svmeval.metrics._ovo",
    "Class scores from one-vs-one decision values in one C pass.", -1, methods,
};

PyMODINIT_FUNC
PyInit__ovo(void)
{
    return PyModule_Create(&moduledef);
}
