//! The analytical operators (§ Analytical Operators): sums, counts, extrema, averages,
//! spread, and the four regressions, computed as the reference resolver's libraries do
//! (population variance; regression coefficients and predictions rounded to two decimals).

/// Rounds to two decimals, as the reference rounds analytical results.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub fn sum(xs: &[f64]) -> f64 {
    xs.iter().sum()
}

pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    sum(xs) / xs.len() as f64
}

pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    }
}

/// The population variance.
pub fn variance(xs: &[f64]) -> f64 {
    let m = mean(xs);
    mean(&xs.iter().map(|x| (x - m) * (x - m)).collect::<Vec<_>>())
}

pub fn standard_deviation(xs: &[f64]) -> f64 {
    variance(xs).sqrt()
}

/// The prediction at `x` of a least-squares line through `points`.
pub fn linear(points: &[(f64, f64)], x: f64) -> f64 {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let sxx: f64 = points.iter().map(|(x, _)| x * x).sum();
    let sxy: f64 = points.iter().map(|(x, y)| x * y).sum();
    let run = n * sxx - sx * sx;
    let gradient = if run == 0.0 {
        0.0
    } else {
        (n * sxy - sx * sy) / run
    };
    let gradient = round2(gradient);
    let intercept = round2(sy / n - gradient * sx / n);
    round2(gradient * x + intercept)
}

/// The prediction at `x` of a least-squares polynomial of `order` through `points`.
pub fn polynomial(points: &[(f64, f64)], order: usize, x: f64) -> f64 {
    let k = order + 1;
    // Normal equations: (A^T A) c = A^T y, with A[i][j] = x_i^j.
    let mut m = vec![vec![0.0; k + 1]; k];
    for (row, line) in m.iter_mut().enumerate() {
        for (col, cell) in line.iter_mut().take(k).enumerate() {
            *cell = points
                .iter()
                .map(|(px, _)| px.powi((row + col) as i32))
                .sum();
        }
        line[k] = points.iter().map(|(px, py)| px.powi(row as i32) * py).sum();
    }
    let coefficients = solve(m);
    let value: f64 = coefficients
        .iter()
        .enumerate()
        .map(|(i, c)| round2(*c) * x.powi(i as i32))
        .sum();
    round2(value)
}

/// Gaussian elimination with partial pivoting on an augmented matrix.
fn solve(mut m: Vec<Vec<f64>>) -> Vec<f64> {
    let k = m.len();
    for i in 0..k {
        let pivot = (i..k)
            .max_by(|a, b| m[*a][i].abs().total_cmp(&m[*b][i].abs()))
            .unwrap_or(i);
        m.swap(i, pivot);
        if m[i][i] == 0.0 {
            continue;
        }
        for r in 0..k {
            if r != i {
                let factor = m[r][i] / m[i][i];
                let pivot_row = m[i].clone();
                for (cell, p) in m[r].iter_mut().zip(&pivot_row).skip(i) {
                    *cell -= factor * p;
                }
            }
        }
    }
    (0..k)
        .map(|i| {
            if m[i][i] == 0.0 {
                0.0
            } else {
                m[i][k] / m[i][i]
            }
        })
        .collect()
}

/// The prediction at `x` of `y = a + b ln x` fitted to `points`.
pub fn logarithmic(points: &[(f64, f64)], x: f64) -> f64 {
    let n = points.len() as f64;
    let (mut s0, mut s1, mut s2, mut s3) = (0.0, 0.0, 0.0, 0.0);
    for (px, py) in points {
        let l = px.ln();
        s0 += l;
        s1 += py * l;
        s2 += py;
        s3 += l * l;
    }
    let b = round2((n * s1 - s2 * s0) / (n * s3 - s0 * s0));
    let a = round2((s2 - b * s0) / n);
    round2(a + b * x.ln())
}

/// The prediction at `x` of `y = a e^(b x)` fitted to `points`.
pub fn exponential(points: &[(f64, f64)], x: f64) -> f64 {
    let mut s = [0.0; 6];
    for (px, py) in points {
        let l = py.ln();
        s[0] += px;
        s[1] += py;
        s[2] += px * px * py;
        s[3] += py * l;
        s[4] += px * py * l;
        s[5] += px * py;
    }
    let denominator = s[1] * s[2] - s[5] * s[5];
    let a = round2(((s[2] * s[3] - s[5] * s[4]) / denominator).exp());
    let b = round2((s[1] * s[4] - s[5] * s[3]) / denominator);
    round2(a * (b * x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_examples() {
        assert_eq!(variance(&[1.0, 2.0, 3.0, 4.0]), 1.25);
        assert_eq!(mean(&[1.0, 2.0, 3.0, 4.0, 10.0]), 4.0);
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), 2.5);
        assert_eq!(linear(&[(0.0, 0.0), (1.0, 2.0), (2.0, 4.0)], 100.0), 200.0);
        assert_eq!(
            polynomial(&[(0.0, 0.0), (1.0, 1.0), (2.0, 4.0)], 2, 5.0),
            25.0
        );
        let e1 = std::f64::consts::E;
        let e = exponential(&[(0.0, 1.0), (1.0, e1), (2.0, e1 * e1)], 1.0);
        assert!((e - 2.72).abs() < 0.05, "{e}");
        let l = logarithmic(
            &[(1.0, 0.0), (std::f64::consts::E, 1.0)],
            std::f64::consts::E,
        );
        assert_eq!(l, 1.0);
    }
}
