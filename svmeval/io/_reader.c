/*
 * svmeval.io._reader: a strict, streaming LIBSVM-format parser.
 *
 * The Python side (svmeval/data.py) opens the file, decompresses it if needed, and feeds the
 * bytes to a Reader in chunks; the Reader parses whole lines and appends to growable bytearrays
 * that become the Dataset's numpy arrays without a copy (np.frombuffer). No Python object is
 * made per feature or per line.
 *
 * The rules are svm-train's (read_problem in svm-train.c), made strict and explained:
 *   line    := [blank] label {blank feature} [blank] [CR]      blank := one or more ' ' or '\t'
 *   label   := a number as C strtod reads it (in the C locale), finite
 *   feature := index ':' value; index a decimal integer (strtol: optional sign), 0 <= index <=
 *              INT32_MAX, strictly ascending within a line; value as label
 * Multi-label mode: label := [integer {',' integer}], each integer written one way (0, 7, -3:
 * no '+', no leading zero, at most 2^53), and a line whose first token holds ':' has an empty
 * label set.
 * A file with commas and no index:value pair anywhere is a CSV file: an error a comma causes
 * (in a label, or in a token where a feature should be) waits while the rest of the file is
 * scanned for a pair; none found, the error is "csv" at the first such line.
 *
 * Numbers: a token with at most 19 significant digits whose value is exactly m * 10^e with
 * m <= 2^53 and |e| <= 22 is converted by one correctly rounded multiplication or division
 * (Clinger's fast path, which gives the same double strtod gives); every other token goes to
 * strtod_l in the C locale. Like svm-train, a value for which strtod reports ERANGE (overflow,
 * or underflow to a subnormal number or zero) is refused.
 *
 * A line longer than max_line bytes (default 64 MiB) is an error, found before more than that is
 * held: memory stays bounded by the data, whatever the input (/dev/zero, a decompression bomb).
 *
 * Errors raise svmeval.io._reader.ParseError(line, kind, token, detail); data.py turns the kind
 * into the message.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
static _locale_t c_locale;
#define HAVE_C_LOCALE 1
#define C_STRTOD(s, e) _strtod_l((s), (e), c_locale)
#elif defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) || \
    defined(__OpenBSD__) || defined(__DragonFly__)
#if defined(__APPLE__)
#include <xlocale.h>
#endif
static locale_t c_locale;
#define HAVE_C_LOCALE 1
#define C_STRTOD(s, e) strtod_l((s), (e), c_locale)
#else
/* No strtod_l: plain strtod, which Python leaves in the C locale unless the program calls
 * setlocale(LC_NUMERIC, ...) itself. */
#define C_STRTOD(s, e) strtod((s), (e))
#endif

static PyObject *ParseError;

/* ------------------------------------------------------------------------------------------ */
/* growable arrays held in bytearrays                                                         */

typedef struct {
    PyObject *ba;       /* bytearray; its size is the capacity */
    Py_ssize_t used;    /* bytes in use */
} Buf;

static int
buf_init(Buf *b, Py_ssize_t cap)
{
    b->ba = PyByteArray_FromStringAndSize(NULL, cap);
    b->used = 0;
    return b->ba == NULL ? -1 : 0;
}

static int
buf_grow(Buf *b, Py_ssize_t need)
{
    Py_ssize_t cap = PyByteArray_GET_SIZE(b->ba);
    if (b->used + need <= cap)
        return 0;
    Py_ssize_t ncap = cap + cap / 2 + need + 4096;
    return PyByteArray_Resize(b->ba, ncap);
}

#define BUF_AT(b, T) ((T *)(PyByteArray_AS_STRING((b)->ba) + (b)->used))

static inline int
buf_push(Buf *b, const void *v, Py_ssize_t size)
{
    if (b->used + size > PyByteArray_GET_SIZE(b->ba) && buf_grow(b, size) < 0)
        return -1;
    memcpy(PyByteArray_AS_STRING(b->ba) + b->used, v, (size_t)size);
    b->used += size;
    return 0;
}

#define buf_push_f64(b, v) buf_push((b), &(double){(v)}, (Py_ssize_t)sizeof(double))
#define buf_push_i64(b, v) buf_push((b), &(int64_t){(v)}, (Py_ssize_t)sizeof(int64_t))

static PyObject *
buf_take(Buf *b)
{
    if (PyByteArray_Resize(b->ba, b->used) < 0)
        return NULL;
    PyObject *r = b->ba;
    b->ba = NULL;
    return r;
}

/* ------------------------------------------------------------------------------------------ */
/* numbers                                                                                    */

enum { NUM_OK = 0, NUM_BAD = 1, NUM_RANGE = 2, NUM_UNDERFLOW = 3 };

static const double pow10_tab[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#define IS_DIGIT(c) ((unsigned char)((c) - '0') < 10)

/* strtod on [s, e) in the C locale; the whole range must be the number */
static int
slow_double(const char *s, const char *e, double *out)
{
    char stackbuf[128];
    size_t n = (size_t)(e - s);
    char *buf = stackbuf;
    int rc;

    *out = 0.0;
    if (n == 0)
        return NUM_BAD;
    /* strtod skips leading white space; a token never starts with it */
    if (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        return NUM_BAD;
    if (n >= sizeof stackbuf) {
        buf = (char *)PyMem_Malloc(n + 1);
        if (buf == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    double v = C_STRTOD(buf, &end);
    if (end != buf + n)
        rc = NUM_BAD;
    else if (errno == ERANGE)
        rc = fabs(v) < 1.0 ? NUM_UNDERFLOW : NUM_RANGE;
    else
        rc = NUM_OK;
    *out = v;
    if (buf != stackbuf)
        PyMem_Free(buf);
    return rc;
}

/* the double strtod reads from [s, e): a NUM_ status, or -1 with an exception set */
static inline int
parse_double(const char *s, const char *e, double *out)
{
    const char *p = s;
    int neg = 0, any = 0, nd = 0, exp10 = 0;
    uint64_t m = 0;

    if (p < e && (*p == '+' || *p == '-')) {
        neg = (*p == '-');
        p++;
    }
    for (; p < e && IS_DIGIT(*p); p++) {
        any = 1;
        if (m == 0 && *p == '0')
            continue;
        if (nd >= 19)
            goto slow;
        m = m * 10 + (uint64_t)(*p - '0');
        nd++;
    }
    if (p < e && *p == '.') {
        for (p++; p < e && IS_DIGIT(*p); p++) {
            any = 1;
            exp10--;
            if (m == 0 && *p == '0')
                continue;
            if (nd >= 19)
                goto slow;
            m = m * 10 + (uint64_t)(*p - '0');
            nd++;
        }
    }
    if (!any)
        goto slow;
    if (p < e && (*p == 'e' || *p == 'E')) {
        int eneg = 0, ev = 0;
        p++;
        if (p < e && (*p == '+' || *p == '-')) {
            eneg = (*p == '-');
            p++;
        }
        if (p >= e || !IS_DIGIT(*p))
            goto slow;
        for (; p < e && IS_DIGIT(*p); p++)
            if (ev < 100000)
                ev = ev * 10 + (*p - '0');
        exp10 += eneg ? -ev : ev;
    }
    if (p != e)
        goto slow;
    if (m == 0) {
        *out = neg ? -0.0 : 0.0;
        return NUM_OK;
    }
    if (m > ((uint64_t)1 << 53) || exp10 < -22 || exp10 > 22)
        goto slow;
    {
        double d = (double)m;
        d = exp10 < 0 ? d / pow10_tab[-exp10] : d * pow10_tab[exp10];
        *out = neg ? -d : d;
        return NUM_OK;
    }
slow:
    return slow_double(s, e, out);
}

/* ------------------------------------------------------------------------------------------ */
/* the Reader                                                                                 */

typedef struct {
    PyObject_HEAD
    int multilabel;
    int failed;      /* a ParseError was raised: the reader is finished */
    int finished;
    Py_ssize_t line; /* physical lines parsed so far */
    int64_t max_index;
    Buf y;           /* float64, single-label mode */
    Buf lab_indptr;  /* int64, multi-label mode */
    Buf lab_values;  /* float64, multi-label mode */
    Buf indptr;      /* int64 */
    Buf indices;     /* int32 */
    Buf values;      /* float64 */
    /* a file with commas and no index:value pair anywhere is a CSV file: an error that a
     * comma caused waits here (pending, the ParseError's args) while the rest of the file is
     * scanned for a pair; found, it is raised; not found, finish() says "csv" */
    PyObject *pending;
    int pairs;               /* an index:value pair was seen */
    Py_ssize_t comma_line;   /* multi-label mode: the first line whose labels hold a comma */
    char *carry;     /* an incomplete last line waiting for the next chunk */
    Py_ssize_t carry_len, carry_cap;
    Py_ssize_t max_line; /* the longest line accepted, in bytes (without its newline) */
} Reader;

#define DEFAULT_MAX_LINE ((Py_ssize_t)64 << 20)

/* the args of ParseError(line, kind, token, detail): a new tuple, or NULL with an exception */
static PyObject *
error_args(Reader *r, const char *kind, const char *ts, const char *te, const char *ds,
           const char *de)
{
    PyObject *args = NULL;
    PyObject *tok = ts ? PyBytes_FromStringAndSize(ts, te - ts) : (Py_INCREF(Py_None), Py_None);
    PyObject *det = ds ? PyBytes_FromStringAndSize(ds, de - ds) : (Py_INCREF(Py_None), Py_None);
    if (tok && det)
        args = Py_BuildValue("(nsOO)", r->line, kind, tok, det);
    Py_XDECREF(tok);
    Py_XDECREF(det);
    return args;
}

/* raise ParseError(line, kind, token, detail); returns -1 */
static int
fail(Reader *r, const char *kind, const char *ts, const char *te, const char *ds, const char *de)
{
    r->failed = 1;
    PyObject *args = error_args(r, kind, ts, te, ds, de);
    if (args) {
        PyErr_SetObject(ParseError, args);
        Py_DECREF(args);
    }
    return -1;
}

#define IS_BLANK(c) ((c) == ' ' || (c) == '\t')

/* ParseError(line, "line_long", None, b"<max_line>"): a line longer than the cap, which keeps
 * memory bounded whatever the input (/dev/zero, a decompression bomb, a file with no newline) */
static int
fail_long(Reader *r, Py_ssize_t line)
{
    char capbuf[24];
    int n = snprintf(capbuf, sizeof capbuf, "%lld", (long long)r->max_line);
    r->line = line;
    return fail(r, "line_long", NULL, NULL, capbuf, capbuf + n);
}

static const char *
num_kind(int rc)
{
    return rc == NUM_BAD ? "bad" : rc == NUM_RANGE ? "range"
                                   : rc == NUM_UNDERFLOW ? "underflow" : "nonfinite";
}

/* [s, e) is an index:value pair as a feature is written: a decimal integer (a sign allowed),
 * a colon, a number */
static int
is_pair(const char *s, const char *e)
{
    const char *colon = memchr(s, ':', e - s);
    double v;
    if (colon == NULL)
        return 0;
    if (s < colon && (*s == '+' || *s == '-'))
        s++;
    if (s == colon)
        return 0;
    for (; s < colon; s++)
        if (!IS_DIGIT(*s))
            return 0;
    return parse_double(colon + 1, e, &v) == NUM_OK;
}

/* scan a line for an index:value pair while an error waits (r->pending): found, the error is
 * raised (-1); else 0 */
static int
scan_line(Reader *r, const char *p, const char *e)
{
    while (p < e) {
        while (p < e && IS_BLANK(*p))
            p++;
        const char *ts = p;
        while (p < e && !IS_BLANK(*p))
            p++;
        if (p > ts && is_pair(ts, p)) {
            r->pairs = 1;
            r->failed = 1;
            PyErr_SetObject(ParseError, r->pending);
            return -1;
        }
    }
    return 0;
}

/* an error that a comma in [ts, te) caused: raised at once where the file has shown an
 * index:value pair, else kept while the rest of the file (this line [lp, le) first) is
 * scanned for one */
static int
fail_comma(Reader *r, const char *kind, const char *ts, const char *te, const char *ds,
           const char *de, const char *lp, const char *le)
{
    if (r->pairs || r->values.used > 0)
        return fail(r, kind, ts, te, ds, de);
    r->pending = error_args(r, kind, ts, te, ds, de);
    if (r->pending == NULL) {
        r->failed = 1;
        return -1;
    }
    return scan_line(r, lp, le);
}

/* [s, e) is a label as a multi-label file writes it: an integer in decimal digits, "-"
 * before a negative one, no leading zero, at most 2^53 in size (a double holds it exactly):
 * one way of writing each label, so that tools that compare labels as text (LIBSVM's
 * multi-label tools) and as numbers (scikit-learn) read the same label set. 1: not an integer
 * written so; 2: an integer larger than 2^53; 0: fine */
static int
labelset_item(const char *s, const char *e)
{
    uint64_t m = 0;
    int n = 0, neg = 0;
    if (s < e && *s == '-') {
        neg = 1;
        s++;
    }
    if (s == e || (*s == '0' && (e - s > 1 || neg)))
        return 1;
    for (; s < e; s++, n++) {
        if (!IS_DIGIT(*s))
            return 1;
        if (n < 19)
            m = m * 10 + (uint64_t)(*s - '0');
    }
    return n > 16 || m > ((uint64_t)1 << 53) ? 2 : 0;
}

/* [s, e) is a label set whose every item is a label as multi-label files write them */
static int
is_labelset(const char *s, const char *e)
{
    for (;;) {
        const char *c = memchr(s, ',', e - s);
        if (labelset_item(s, c ? c : e) != 0)
            return 0;
        if (c == NULL)
            return 1;
        s = c + 1;
    }
}

static int
parse_line(Reader *r, const char *p, const char *e)
{
    const char *ts, *te;

    r->line++;
    if (e - p > r->max_line)
        return fail_long(r, r->line);
    /* CR of a CRLF ending, trailing blanks */
    while (e > p && (IS_BLANK(e[-1]) || e[-1] == '\r'))
        e--;
    while (p < e && IS_BLANK(*p))
        p++;
    if (r->pending != NULL)
        return scan_line(r, p, e); /* an error waits: is the file a CSV file? */
    if (p == e)
        return fail(r, "empty", NULL, NULL, NULL, NULL);
    const char *lp = p, *le = e;

    /* label token */
    ts = p;
    while (p < e && !IS_BLANK(*p))
        p++;
    te = p;
    if (r->multilabel) {
        if (memchr(ts, ':', te - ts) != NULL) {
            p = ts; /* no labels: the token is the first feature */
        }
        else {
            const char *s = ts;
            int comma = memchr(ts, ',', te - ts) != NULL;
            if (comma && r->comma_line == 0)
                r->comma_line = r->line;
            for (;;) {
                const char *c = memchr(s, ',', te - s);
                const char *ee = c ? c : te;
                char kind[32] = "";
                double v;
                int rc = parse_double(s, ee, &v);
                if (rc < 0) {
                    r->failed = 1;
                    return -1;
                }
                if (rc != NUM_OK || !isfinite(v))
                    snprintf(kind, sizeof kind, "labelset_%s", num_kind(rc));
                else if ((rc = labelset_item(s, ee)) != 0)
                    snprintf(kind, sizeof kind, "%s", rc == 1 ? "labelset_form" : "labelset_large");
                if (kind[0] != '\0')
                    return comma ? fail_comma(r, kind, ts, te, s, ee, lp, le)
                                 : fail(r, kind, ts, te, s, ee);
                if (buf_push_f64(&r->lab_values, v) < 0)
                    return -1;
                if (c == NULL)
                    break;
                s = c + 1;
            }
        }
        if (buf_push_i64(&r->lab_indptr, r->lab_values.used / (Py_ssize_t)sizeof(double)) < 0)
            return -1;
    }
    else {
        double v;
        int rc = parse_double(ts, te, &v);
        if (rc < 0) {
            r->failed = 1;
            return -1;
        }
        if (rc != NUM_OK || !isfinite(v)) {
            if (memchr(ts, ',', te - ts) != NULL)
                return fail_comma(r, is_labelset(ts, te) ? "label_comma" : "label_comma_bad", ts,
                                  te, NULL, NULL, lp, le);
            if (rc == NUM_BAD && memchr(ts, ':', te - ts) != NULL)
                return fail(r, "label_colon", ts, te, NULL, NULL);
            char kind[32];
            snprintf(kind, sizeof kind, "label_%s", num_kind(rc));
            return fail(r, kind, ts, te, NULL, NULL);
        }
        if (buf_push_f64(&r->y, v) < 0)
            return -1;
    }

    /* features */
    int64_t prev = -1;
    for (;;) {
        while (p < e && IS_BLANK(*p))
            p++;
        if (p == e)
            break;
        ts = p;
        while (p < e && !IS_BLANK(*p))
            p++;
        te = p;

        const char *colon = memchr(ts, ':', te - ts);
        if (colon == NULL && memchr(ts, ',', te - ts) != NULL)
            return fail_comma(r, "feature_nocolon", ts, te, NULL, NULL, lp, le);
        if (colon == NULL)
            return fail(r, "feature_nocolon", ts, te, NULL, NULL);
        if (colon == ts)
            return fail(r, "index_missing", ts, te, NULL, NULL);

        /* index: as strtol(idx, &end, 10) with the whole part consumed */
        const char *q = ts;
        int ineg = 0;
        int64_t idx = 0;
        if (*q == '+' || *q == '-') {
            ineg = (*q == '-');
            q++;
        }
        if (q == colon)
            return fail(r, "index_bad", ts, te, ts, colon);
        for (; q < colon; q++) {
            if (!IS_DIGIT(*q) && memchr(ts, ',', colon - ts) != NULL)
                return fail_comma(r, "index_bad", ts, te, ts, colon, lp, le);
            if (!IS_DIGIT(*q))
                return fail(r, "index_bad", ts, te, ts, colon);
            if (idx <= INT32_MAX)
                idx = idx * 10 + (*q - '0');
        }
        if (ineg && idx != 0)
            return fail(r, "index_negative", ts, te, ts, colon);
        if (idx > INT32_MAX)
            return fail(r, "index_large", ts, te, ts, colon);
        if (idx <= prev) {
            char prevbuf[24];
            int n = snprintf(prevbuf, sizeof prevbuf, "%lld", (long long)prev);
            return fail(r, "index_order", ts, te, prevbuf, prevbuf + n);
        }
        prev = idx;

        /* value */
        const char *vs = colon + 1;
        if (vs == te)
            return fail(r, "value_missing", ts, te, NULL, NULL);
        double v;
        int rc = parse_double(vs, te, &v);
        if (rc < 0) {
            r->failed = 1;
            return -1;
        }
        if (rc != NUM_OK || !isfinite(v)) {
            char kind[32];
            snprintf(kind, sizeof kind, "value_%s", num_kind(rc));
            return fail(r, kind, ts, te, vs, te);
        }

        if (r->indices.used + 4 > PyByteArray_GET_SIZE(r->indices.ba) &&
            buf_grow(&r->indices, 4) < 0)
            return -1;
        int32_t i32 = (int32_t)idx;
        memcpy(BUF_AT(&r->indices, char), &i32, 4);
        r->indices.used += 4;
        if (buf_push_f64(&r->values, v) < 0)
            return -1;
    }
    if (prev > r->max_index)
        r->max_index = prev;
    return buf_push_i64(&r->indptr, r->values.used / (Py_ssize_t)sizeof(double));
}

static int
carry_append(Reader *r, const char *s, Py_ssize_t n)
{
    if (r->carry_len + n > r->max_line)
        return fail_long(r, r->line + 1);
    if (r->carry_len + n > r->carry_cap) {
        Py_ssize_t ncap = (r->carry_len + n) * 2 + 256;
        if (ncap > r->max_line)
            ncap = r->max_line; /* never more than a line may hold */
        char *nb = (char *)PyMem_Realloc(r->carry, ncap);
        if (nb == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        r->carry = nb;
        r->carry_cap = ncap;
    }
    memcpy(r->carry + r->carry_len, s, n);
    r->carry_len += n;
    return 0;
}

static int
Reader_init(Reader *r, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"multilabel", "max_line", NULL};
    int multilabel = 0;
    Py_ssize_t max_line = DEFAULT_MAX_LINE;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|pn", kwlist, &multilabel, &max_line))
        return -1;
    if (max_line < 1) {
        PyErr_SetString(PyExc_ValueError, "max_line must be positive");
        return -1;
    }
    r->max_line = max_line;
    if (r->indptr.ba != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Reader is already initialised");
        return -1;
    }
    r->multilabel = multilabel;
    r->max_index = 0;
    if (buf_init(&r->indptr, 1 << 16) < 0 || buf_init(&r->indices, 1 << 18) < 0 ||
        buf_init(&r->values, 1 << 19) < 0)
        return -1;
    if (multilabel) {
        if (buf_init(&r->lab_indptr, 1 << 16) < 0 || buf_init(&r->lab_values, 1 << 16) < 0 ||
            buf_push_i64(&r->lab_indptr, 0) < 0)
            return -1;
    }
    else if (buf_init(&r->y, 1 << 16) < 0)
        return -1;
    return buf_push_i64(&r->indptr, 0);
}

static void
Reader_dealloc(Reader *r)
{
    Py_XDECREF(r->y.ba);
    Py_XDECREF(r->lab_indptr.ba);
    Py_XDECREF(r->lab_values.ba);
    Py_XDECREF(r->indptr.ba);
    Py_XDECREF(r->indices.ba);
    Py_XDECREF(r->values.ba);
    Py_XDECREF(r->pending);
    PyMem_Free(r->carry);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

static int
check_usable(Reader *r)
{
    if (r->indptr.ba == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Reader is not initialised");
        return -1;
    }
    if (r->failed || r->finished) {
        PyErr_SetString(PyExc_RuntimeError, "Reader has finished");
        return -1;
    }
    return 0;
}

static PyObject *
Reader_feed(Reader *r, PyObject *arg)
{
    Py_buffer view;
    if (check_usable(r) < 0)
        return NULL;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const char *p = (const char *)view.buf;
    const char *end = p + view.len;
    int rc = 0;

    if (r->carry_len > 0) {
        const char *nl = memchr(p, '\n', end - p);
        if (nl == NULL) {
            rc = carry_append(r, p, end - p);
            p = end;
        }
        else {
            rc = carry_append(r, p, nl - p);
            if (rc == 0)
                rc = parse_line(r, r->carry, r->carry + r->carry_len);
            r->carry_len = 0;
            p = nl + 1;
        }
    }
    while (rc == 0 && p < end) {
        const char *nl = memchr(p, '\n', end - p);
        if (nl == NULL) {
            rc = carry_append(r, p, end - p);
            break;
        }
        rc = parse_line(r, p, nl);
        p = nl + 1;
    }
    PyBuffer_Release(&view);
    if (rc < 0) {
        r->failed = 1;
        return NULL;
    }
    Py_RETURN_NONE;
}

/* finish() -> (y, indptr, indices, values, max_index, label_indptr, label_values); the arrays
 * are bytearrays (y None in multi-label mode, label_* None otherwise) */
static PyObject *
Reader_finish(Reader *r, PyObject *Py_UNUSED(ignored))
{
    if (check_usable(r) < 0)
        return NULL;
    if (r->carry_len > 0) {
        int rc = parse_line(r, r->carry, r->carry + r->carry_len);
        r->carry_len = 0;
        if (rc < 0) {
            r->failed = 1;
            return NULL;
        }
    }
    if (r->pending != NULL || (r->multilabel && r->comma_line > 0 && r->values.used == 0)) {
        /* commas, and no index:value pair anywhere: a CSV file */
        if (r->pending != NULL)
            r->line = PyLong_AsSsize_t(PyTuple_GET_ITEM(r->pending, 0));
        else
            r->line = r->comma_line;
        return fail(r, "csv", NULL, NULL, NULL, NULL), NULL;
    }
    r->finished = 1;
    PyObject *y = NULL, *li = NULL, *lv = NULL, *ip = NULL, *ix = NULL, *vs = NULL;
    if (r->multilabel) {
        y = Py_None;
        Py_INCREF(y);
        li = buf_take(&r->lab_indptr);
        lv = buf_take(&r->lab_values);
    }
    else {
        y = buf_take(&r->y);
        li = Py_None;
        lv = Py_None;
        Py_INCREF(li);
        Py_INCREF(lv);
    }
    ip = buf_take(&r->indptr);
    ix = buf_take(&r->indices);
    vs = buf_take(&r->values);
    if (!y || !li || !lv || !ip || !ix || !vs) {
        Py_XDECREF(y);
        Py_XDECREF(li);
        Py_XDECREF(lv);
        Py_XDECREF(ip);
        Py_XDECREF(ix);
        Py_XDECREF(vs);
        return NULL;
    }
    return Py_BuildValue("(NNNNLNN)", y, ip, ix, vs, (long long)r->max_index, li, lv);
}

static PyObject *
Reader_get_lines(Reader *r, void *closure)
{
    return PyLong_FromSsize_t(r->line);
}

/* bytes held: the arrays' capacities and the carried line (what a bound on memory counts) */
static PyObject *
Reader_get_held(Reader *r, void *closure)
{
    Buf *bufs[] = {&r->y, &r->lab_indptr, &r->lab_values, &r->indptr, &r->indices, &r->values};
    Py_ssize_t held = r->carry_cap;
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i]->ba)
            held += PyByteArray_GET_SIZE(bufs[i]->ba);
    return PyLong_FromSsize_t(held);
}

static PyMethodDef Reader_methods[] = {
    {"feed", (PyCFunction)Reader_feed, METH_O,
     "feed(data): parse the complete lines in data (any bytes-like object); an incomplete last "
     "line waits for the next chunk."},
    {"finish", (PyCFunction)Reader_finish, METH_NOARGS,
     "finish() -> (y, indptr, indices, values, max_index, label_indptr, label_values): parse "
     "the last line and hand over the arrays as bytearrays (float64, int64, int32, float64)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Reader_getset[] = {
    {"lines", (getter)Reader_get_lines, NULL, "physical lines parsed so far", NULL},
    {"held", (getter)Reader_get_held, NULL, "bytes held by the arrays and the carried line",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "svmeval.io._reader.Reader",
    .tp_basicsize = sizeof(Reader),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reader(multilabel=False, max_line=64 MiB): a streaming, strict LIBSVM-format "
              "parser; a line longer than max_line bytes is a ParseError.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Reader_init,
    .tp_dealloc = (destructor)Reader_dealloc,
    .tp_methods = Reader_methods,
    .tp_getset = Reader_getset,
};

/* strtod(s) in the C locale, for tests: (value, status) with status 0 ok, 1 bad, 2 ERANGE */
static PyObject *
mod_parse_number(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    double v = 0.0;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    int rc = parse_double((const char *)view.buf, (const char *)view.buf + view.len, &v);
    PyBuffer_Release(&view);
    if (rc < 0)
        return NULL;
    return Py_BuildValue("(di)", v, rc);
}

/* A print function for LIBSVM's svm_set_print_string_function that prints nothing (-q).
 * A C function, unlike a ctypes callback, needs no GIL: quiet training in worker threads never
 * waits for Python, and a Ctrl-C is never delivered inside LIBSVM's messages. */
__attribute__((visibility("default"))) void
svmeval_print_nothing(const char *s)
{
    (void)s;
}

/* The reader's arrays laid out as LIBSVM's svm_node rows (LIBLINEAR's feature_node is the same
 * struct), for the light paths (svmeval.cv.run.light, through ctypes): row i's features in
 * order, then, where extra_index > 0, a last node (extra_index, extra_value) (LIBLINEAR's bias
 * feature), then its index -1 terminator, the rows one after another in nodes, which holds
 * nnz + n * (extra_index > 0 ? 2 : 1) nodes (zeroed by the caller: a node's padding and a
 * terminator's value stay zero); rows[i] is the address of row i's first node. */
struct svmeval_node {
    int index;
    double value;
};

__attribute__((visibility("default"))) void
svmeval_rows_nodes(const int64_t *indptr, const int32_t *indices, const double *values, int64_t n,
                   int32_t extra_index, double extra_value, struct svmeval_node *nodes,
                   struct svmeval_node **rows)
{
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        rows[i] = nodes + k;
        for (int64_t j = indptr[i]; j < indptr[i + 1]; j++, k++) {
            nodes[k].index = indices[j];
            nodes[k].value = values[j];
        }
        if (extra_index > 0) {
            nodes[k].index = extra_index;
            nodes[k].value = extra_value;
            k++;
        }
        nodes[k++].index = -1;
    }
}

static PyMethodDef module_methods[] = {
    {"parse_number", mod_parse_number, METH_O,
     "parse_number(b) -> (value, status): the reader's number conversion (status 0 ok, 1 not a "
     "number, 2 overflow, 3 underflow: strtod's ERANGE)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "svmeval.io._reader",
    "Strict, streaming LIBSVM-format parser (see svmeval.io.data).", -1, module_methods,
};

PyMODINIT_FUNC
PyInit__reader(void)
{
#if defined(HAVE_C_LOCALE)
    if (!c_locale) {
#if defined(_WIN32)
        c_locale = _create_locale(LC_ALL, "C");
#else
        c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
#endif
        if (!c_locale) {
            PyErr_SetString(PyExc_ImportError, "cannot create the C locale");
            return NULL;
        }
    }
#endif
    if (PyType_Ready(&ReaderType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL)
        return NULL;
    ParseError = PyErr_NewExceptionWithDoc(
        "svmeval.io._reader.ParseError",
        "A line the reader refuses: args are (line, kind, token, detail).", PyExc_ValueError,
        NULL);
    if (ParseError == NULL || PyModule_AddObject(m, "ParseError", ParseError) < 0) {
        Py_XDECREF(ParseError);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(ParseError);
    Py_INCREF(&ReaderType);
    if (PyModule_AddObject(m, "Reader", (PyObject *)&ReaderType) < 0) {
        Py_DECREF(&ReaderType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
