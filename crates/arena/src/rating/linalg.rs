//! Just enough dense linear algebra for the rating fit: Newton steps and interval widths need
//! solves against a small symmetric positive-definite information matrix (one row per player).

/// Cholesky factor `L` of a symmetric positive-definite matrix `A = L·Lᵀ`.
pub(crate) struct Cholesky {
    size: usize,
    /// Row-major lower triangle (the upper part is zero).
    lower: Vec<f64>,
}

impl Cholesky {
    /// Factors the row-major `size × size` matrix, or `None` when it is not numerically
    /// positive definite (for the fit: a rating the data does not pin down).
    pub(crate) fn new(matrix: &[f64], size: usize) -> Option<Self> {
        assert_eq!(matrix.len(), size * size, "matrix is not size × size");
        let mut lower = vec![0.0; size * size];
        for row in 0..size {
            for col in 0..=row {
                let dot: f64 = (0..col)
                    .map(|k| lower[row * size + k] * lower[col * size + k])
                    .sum();
                let value = matrix[row * size + col] - dot;
                lower[row * size + col] = if row == col {
                    if value <= 0.0 || !value.is_finite() {
                        return None;
                    }
                    value.sqrt()
                } else {
                    value / lower[col * size + col]
                };
            }
        }
        Some(Self { size, lower })
    }

    /// Solves `A·x = b` by forward then backward substitution.
    pub(crate) fn solve(&self, rhs: &[f64]) -> Vec<f64> {
        let n = self.size;
        let l = |row: usize, col: usize| self.lower[row * n + col];
        let mut y = vec![0.0; n];
        for row in 0..n {
            let dot: f64 = (0..row).map(|k| l(row, k) * y[k]).sum();
            y[row] = (rhs[row] - dot) / l(row, row);
        }
        let mut x = vec![0.0; n];
        for row in (0..n).rev() {
            let dot: f64 = (row + 1..n).map(|k| l(k, row) * x[k]).sum();
            x[row] = (y[row] - dot) / l(row, row);
        }
        x
    }

    /// Diagonal of `A⁻¹`: the variances when `A` is an information matrix.
    pub(crate) fn inverse_diagonal(&self) -> Vec<f64> {
        (0..self.size)
            .map(|i| {
                let mut unit = vec![0.0; self.size];
                unit[i] = 1.0;
                self.solve(&unit)[i]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts_a_2x2_by_hand() {
        // A = [[4, 2], [2, 3]], det 8, A⁻¹ = [[3, −2], [−2, 4]] / 8.
        // A·x = [2, 1] → x = A⁻¹·[2, 1] = [(6 − 2) / 8, (−4 + 4) / 8] = [0.5, 0].
        let chol = Cholesky::new(&[4.0, 2.0, 2.0, 3.0], 2).unwrap();
        let x = chol.solve(&[2.0, 1.0]);
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12);
        let diag = chol.inverse_diagonal();
        assert!((diag[0] - 3.0 / 8.0).abs() < 1e-12);
        assert!((diag[1] - 4.0 / 8.0).abs() < 1e-12);
    }

    #[test]
    fn rejects_singular_matrices() {
        assert!(Cholesky::new(&[1.0, 1.0, 1.0, 1.0], 2).is_none());
    }
}
