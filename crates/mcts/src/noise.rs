use rand::Rng;
use rand_distr::{Distribution, Gamma};

/// Fills `out` with one sample of a symmetric Dirichlet distribution with concentration
/// `alpha` per entry, built from Gamma draws: rand_distr's `Dirichlet` fixes the dimension at
/// compile time, and the number of legal moves is only known at run time.
///
/// Returns false (and leaves `out` unusable) when every draw underflowed to zero, which tiny
/// concentrations make possible; the caller then skips the noise.
pub(crate) fn dirichlet(alpha: f32, out: &mut [f32], rng: &mut impl Rng) -> bool {
    let Ok(gamma) = Gamma::new(alpha, 1.0) else {
        return false;
    };
    for x in out.iter_mut() {
        *x = gamma.sample(rng);
    }
    let sum: f32 = out.iter().sum();
    if sum <= 0.0 || !sum.is_finite() {
        return false;
    }
    for x in out.iter_mut() {
        *x /= sum;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn samples_lie_on_the_simplex() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut out = [0.0; 50];
        assert!(dirichlet(0.2, &mut out, &mut rng));
        assert!(out.iter().all(|&x| (0.0..=1.0).contains(&x)));
        assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn small_concentration_makes_spiky_samples() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut spiky = [0.0; 20];
        let mut flat = [0.0; 20];
        let mut spiky_max = 0.0;
        let mut flat_max = 0.0;
        for _ in 0..100 {
            dirichlet(0.05, &mut spiky, &mut rng);
            dirichlet(50.0, &mut flat, &mut rng);
            spiky_max += spiky.iter().copied().fold(0.0, f32::max);
            flat_max += flat.iter().copied().fold(0.0, f32::max);
        }
        assert!(spiky_max > 50.0, "mean max {}", spiky_max / 100.0);
        assert!(flat_max < 10.0, "mean max {}", flat_max / 100.0);
    }
}
