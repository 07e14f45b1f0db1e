"""PerceptronClassifier follows scikit-learn's conventions and wraps fit_perceptron."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptron_lib import fit_perceptron
from perceptron_lib.core.estimator import PerceptronClassifier


@parametrize_with_checks([PerceptronClassifier()])
def test_sklearn_conventions(estimator, check):
    check(estimator)


def test_any_two_labels_and_same_weights_as_fit_perceptron():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    labels = np.where(X[:, 0] - X[:, 1] > 0, "cat", "dog")
    clf = PerceptronClassifier(eta=0.5).fit(X, labels)
    run = fit_perceptron(X, np.where(labels == "dog", 1, -1), eta=0.5)  # classes_[1] = "dog" is +1
    np.testing.assert_array_equal(clf.coef_[0], run.w)
    assert clf.intercept_[0] == run.b and clf.run_.mistakes == run.mistakes
    assert clf.score(X, labels) == 1.0
    assert list(clf.classes_) == ["cat", "dog"]


def test_three_classes_refused_with_advice():
    with pytest.raises(ValueError, match=r"Only binary classification.*got 3.*relabel one class"):
        PerceptronClassifier().fit([[0.0], [1.0], [2.0]], [0, 1, 2])
