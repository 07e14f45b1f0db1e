"""`PerceptronClassifier`: the course's perceptron as a scikit-learn estimator.

It accepts any two labels, maps them to -1/+1 (``classes_[1]`` is +1), and
keeps the whole `Run` in ``run_`` so a fitted model can still be stepped
through in a player.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .training import fit_perceptron

__all__ = ["PerceptronClassifier"]


class PerceptronClassifier(ClassifierMixin, BaseEstimator):
    """The online perceptron with scikit-learn's fit/predict conventions.

    Parameters
    ----------
    eta : float > 0, default=1.0
    max_epochs : int >= 1, default=1000
    order : {"cyclic", "random"}, default="cyclic"
    random_state : None, int or numpy.random.Generator
        Seeds the permutations when ``order="random"``.
    fit_bias : bool, default=True
    update_on : {"nonpositive", "negative", "sign"}, default="nonpositive"

    Attributes
    ----------
    classes_ : ndarray, shape (2,)
        The two labels; ``classes_[1]`` plays the role of y = +1.
    coef_ : ndarray, shape (1, d)
    intercept_ : ndarray, shape (1,)
    n_iter_ : int
        Epochs run.
    run_ : Run
        The full record of the fit.

    Examples
    --------
    >>> clf = PerceptronClassifier().fit([[2, 1], [-1, -2]], ["spam", "ham"])
    >>> clf.predict([[3, 3], [-3, -3]]).tolist()
    ['spam', 'ham']
    """

    def __init__(self, *, eta=1.0, max_epochs=1000, order="cyclic", random_state=None, fit_bias=True,
                 update_on="nonpositive"):
        self.eta = eta
        self.max_epochs = max_epochs
        self.order = order
        self.random_state = random_state
        self.fit_bias = fit_bias
        self.update_on = update_on

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X, y):
        """Fit on X (n, d) and y (n,) holding exactly two distinct labels."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(
                f"Only binary classification is supported: PerceptronClassifier needs exactly two classes in y; "
                f"got {len(self.classes_)}: {self.classes_[:5].tolist()}. Keep two of them, or relabel one class "
                f"against the rest."
            )
        signs = np.where(y == self.classes_[1], 1.0, -1.0)
        run = fit_perceptron(
            X, signs, eta=self.eta, max_epochs=self.max_epochs, order=self.order, rng=self.random_state,
            fit_bias=self.fit_bias, update_on=self.update_on,
        )
        self.run_ = run
        self.coef_ = run.w.copy()[None, :]
        self.intercept_ = np.array([run.b])
        self.n_iter_ = run.epochs
        return self

    def decision_function(self, X):
        """Scores <w, x> + b, shape (n,); positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_[0] + self.intercept_[0]

    def predict(self, X):
        """Labels from ``classes_``, with a score of exactly 0 going to ``classes_[0]``."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(int)]
