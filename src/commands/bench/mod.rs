mod analysis;
mod learning;
mod nn;
mod onnx;
mod rules;
mod search;
mod selfplay;
mod serve;
mod train;

use clap::Subcommand;
use std::time::Duration;

#[derive(Subcommand)]
pub enum Bench {
    /// Random full games of a game (ghast on the standard board by default): moves and games
    /// per second.
    ///
    /// Example: ghast bench rules --game ghodak --size 19
    Rules(rules::Args),
    /// PUCT simulations per second with a uniform evaluator, from a mid-game position, on one
    /// thread and all threads.
    Search(search::Args),
    /// Network forward evaluations per second at several batch sizes on a game's board,
    /// FLOPs and FLOP/s.
    Nn(nn::Args),
    /// A bundle's network on libtorch and on its model.onnx (tract), side by side:
    /// evaluations per second at a bot's batch and at self-play's.
    ///
    /// Example: ghast bench onnx --bot models/ghodak9 --batch 1,64
    Onnx(onnx::Args),
    /// Self-play evaluations per second over bare forward passes of the same net: the loop's efficiency.
    ///
    /// Self-play runs without the evaluation cache that `ghast train` puts in front of the
    /// net, so that every position searched is a network evaluation and the two rates compare.
    ///
    /// Example: OMP_NUM_THREADS=1 ghast bench selfplay --size 6
    Selfplay(selfplay::Args),
    /// Train on a config for some minutes, then rate the bot against fixed opponents: what a
    /// run turns its CPU-seconds into.
    ///
    /// Example: ghast bench learning --config configs/small.toml --minutes 30
    Learning(learning::Args),
    /// Training steps per second and the losses they reach in fp32 and in bf16, from the same
    /// weights on the same samples of a run's games.
    ///
    /// Example: ghast bench train --run runs/standard --device cuda --steps 300
    Train(train::Args),
    /// A load test of `ghast serve` on loopback: many clients playing whole games at once
    /// beside a long analysis, idle and malformed connections; latency per request.
    ///
    /// Example: ghast bench serve --bot models/ghast-size4 --clients 16
    Serve(serve::Args),
    /// Positions analysed per second by `ghast analysis` with one query at a time and with
    /// all of them in flight (their positions sharing the network's batches), side by side.
    ///
    /// Example: ghast bench analysis --bot models/ghodak9 --visits 100 --queries 64
    Analysis(analysis::Args),
}

pub fn run(bench: Bench) -> anyhow::Result<()> {
    match bench {
        Bench::Rules(args) => rules::run(args),
        Bench::Search(args) => search::run(args),
        Bench::Nn(args) => nn::run(args),
        Bench::Onnx(args) => onnx::run(args),
        Bench::Selfplay(args) => selfplay::run(args),
        Bench::Learning(args) => learning::run(args),
        Bench::Train(args) => train::run(args),
        Bench::Serve(args) => serve::run(args),
        Bench::Analysis(args) => analysis::run(args),
    }
}

/// The longest measurement a `--seconds` flag accepts: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// Parses a `--seconds` flag: a positive, finite number of seconds, at most a day.
fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(value > 0.0 && value <= MAX_SECONDS) {
        return Err(format!(
            "{text} seconds: expected a number above 0 and at most {MAX_SECONDS}"
        ));
    }
    Ok(Duration::from_secs_f64(value))
}

/// User plus system CPU time of this process, all threads, in seconds.
pub(super) fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_must_be_positive_finite_and_bounded() {
        assert_eq!(seconds("1.5"), Ok(Duration::from_millis(1500)));
        for bad in ["0", "-1", "inf", "NaN", "1e9", "soon"] {
            assert!(seconds(bad).is_err(), "{bad} accepted");
        }
    }
}
