"""svm-train's options, in its usage order, with its words (its training options, ``-v`` and
``-q``): each training option's field and kind are svm-train's syntax's
(:mod:`svmeval.io.svm_train_syntax`, which reads its values). Part of the one option table,
:mod:`svmeval.cli.options`."""

from __future__ import annotations

from svmeval.cli.option_type import Option
from svmeval.cli.values import parse_folds
from svmeval.io.svm_train_syntax import FIELD_OF_FLAG, INT_FIELDS


def _svm(flag, metavar, help, default=None, more="", sep=" : "):
    """One of svm-train's training options: its field and kind are svm-train's syntax's
    (:mod:`svmeval.io.svm_train_syntax`, which reads its values)."""
    field = FIELD_OF_FLAG.get(flag, "weight")  # -wi: the weights
    kind = "int" if field in INT_FIELDS else "double"
    return Option((flag,), metavar, field, kind, help, default, more, svm=True, sep=sep)


#: svm-train's options, in its usage order, with its words
SVM_TRAIN_OPTIONS = (
    _svm(
        "-s",
        "svm_type",
        "set type of SVM",
        "0",
        more=(
            "\t0 -- C-SVC\t\t(multi-class classification)\n"
            "\t1 -- nu-SVC\t\t(multi-class classification)\n"
            "\t2 -- one-class SVM\n"
            "\t3 -- epsilon-SVR\t(regression)\n"
            "\t4 -- nu-SVR\t\t(regression)\n"
        ),
    ),
    _svm(
        "-t",
        "kernel_type",
        "set type of kernel function",
        "2",
        more=(
            "\t0 -- linear: u'*v\n"
            "\t1 -- polynomial: (gamma*u'*v + coef0)^degree\n"
            "\t2 -- radial basis function: exp(-gamma*|u-v|^2)\n"
            "\t3 -- sigmoid: tanh(gamma*u'*v + coef0)\n"
            "\t4 -- precomputed kernel (kernel values in training_set_file)\n"
        ),
    ),
    _svm("-d", "degree", "set degree in kernel function", "3"),
    _svm("-g", "gamma", "set gamma in kernel function", "1/num_features"),
    _svm("-r", "coef0", "set coef0 in kernel function", "0"),
    _svm("-c", "cost", "set the parameter C of C-SVC, epsilon-SVR, and nu-SVR", "1"),
    _svm(
        "-n",
        "nu",
        "set the parameter nu of nu-SVC, one-class SVM, and nu-SVR",
        "0.5",
    ),
    _svm("-p", "epsilon", "set the epsilon in loss function of epsilon-SVR", "0.1"),
    _svm("-m", "cachesize", "set cache memory size in MB", "100"),
    _svm("-e", "epsilon", "set tolerance of termination criterion", "0.001"),
    _svm(
        "-h",
        "shrinking",
        "whether to use the shrinking heuristics, 0 or 1",
        "1",
    ),
    _svm(
        "-b",
        "probability_estimates",
        "whether to train a SVC or SVR model for probability estimates, 0 or 1",
        "0",
    ),
    _svm(
        "-wi",
        "weight",
        "set the parameter C of class i to weight*C, for C-SVC",
        "1",
    ),
    Option(
        ("-v",),
        "n",
        "nr_fold",
        "int",
        "n-fold cross validation mode",
        sep=": ",
        read=parse_folds,
        defaults=(("grid", "5"), ("compare", "10")),
    ),
    Option(("-q",), "", "quiet", "flag", "quiet mode (no outputs)"),
)
