pub mod analysis;
mod arena;
mod backend;
#[cfg(feature = "torch")]
mod bench;
mod catalogue;
mod export;
mod games;
mod gtp;
#[cfg(feature = "torch")]
mod ladder;
#[cfg(feature = "torch")]
mod learn;
#[cfg(not(feature = "torch"))]
mod needs_torch;
pub mod registry;
mod replay;
pub mod rule_args;
#[cfg(feature = "torch")]
mod selfplay;
mod serve;
#[cfg(feature = "torch")]
mod train;

// A build without libtorch keeps every command in `--help`; those that need libtorch refuse.
#[cfg(not(feature = "torch"))]
use needs_torch::{self as bench, self as ladder, self as learn, self as selfplay, self as train};

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Command {
    /// Train a bot: self-play, replay store, trainer and checkpoints in one resumable run.
    ///
    /// A run lives in one folder: replay shards, checkpoints (models/gen-NNNN.safetensors with a
    /// JSON sidecar, and models/latest), and TensorBoard curves (tensorboard --logdir
    /// RUN/tensorboard). Kill it at any moment (even with kill -9) and continue with --resume:
    /// no finished game and no checkpoint is lost.
    ///
    /// Examples:
    ///   ghast train                                  # configs/small.toml into runs/small
    ///   ghast train --config configs/tiny.toml --run runs/tiny --generations 3
    ///   ghast train --run runs/small --resume
    #[command(verbatim_doc_comment)]
    Train(train::Args),
    /// The trainer of a run on many machines: trains on the games that `ghast selfplay`
    /// processes put in a shared store, and publishes each new generation there.
    ///
    /// Everything else is as `ghast train`: the run folder holds the checkpoints and
    /// TensorBoard curves, --resume continues after a kill, and the bot is exported at the end.
    /// The learner puts the run's configuration in the store; start it first or last.
    ///
    /// Examples:
    ///   ghast learn --store s3://my-bucket/runs/size6 --config configs/standard-cpu.toml --run runs/size6
    ///   ghast learn --store /mnt/nfs/size6 --run runs/size6 --resume
    #[command(verbatim_doc_comment)]
    Learn(learn::Args),
    /// A self-play process of a run on many machines: plays the generation its learner
    /// published in the store, and sends the games there.
    ///
    /// Finished games stay in the process's journal (in --run) until their shard is stored: a
    /// kill or a store that is down loses none, and a restart on the same folder sends them.
    /// Run as many as you have machines (or GPUs), each with a folder of its own.
    ///
    /// Examples:
    ///   ghast selfplay --store s3://my-bucket/runs/size6 --run runs/size6-selfplay
    ///   ghast selfplay --store /mnt/nfs/size6 --run /tmp/selfplay --minutes 60
    #[command(verbatim_doc_comment)]
    Selfplay(selfplay::Args),
    /// Play a match between two players (baselines, checkpoints, bundles or GTP engines)
    /// and report the score and the Elo difference with its 95% interval.
    Arena(arena::Args),
    /// Rate every generation of a training run against its predecessor and fixed baselines,
    /// and plot the ratings.
    Ladder(ladder::Args),
    /// Write a bot bundle (weights, sidecar, bot.toml with visits and search settings) from a
    /// checkpoint or a training run, with --onnx the network as model.onnx too.
    ///
    /// A bundle is ready for `ghast gtp --bot DIR`, `ghast arena` and `ghast serve`; edit
    /// bot.toml to change how the bot searches. model.onnx is the network for onnxruntime,
    /// tract or any ONNX runtime (opset 13), with a dynamic batch and board. Its inputs:
    ///   planes        [batch, channels, height, width]  `ghast games --planes GAME` says
    ///                                                   what each plane holds
    ///   board_mask    [batch, height, width]            1 on the board, 0 on padding
    ///   illegal_bias  [batch, actions]                  0 legal, -1e9 illegal
    /// Its outputs: policy [batch, actions] (probabilities in the game's action order),
    /// wdl [batch, 3], lead [batch], ownership [batch, height, width], all for the side to
    /// move. Its metadata holds the game and the checkpoint's sidecar.
    ///
    /// Examples:
    ///   ghast export --checkpoint runs/small/models/gen-0100.safetensors --out bots/b --onnx
    ///   ghast export --bundle models/ghodak9 --onnx     (adds model.onnx to a bundle)
    ///   ghast export --run runs/ghodak9 --average 8 --out bots/averaged
    ///                                    (the run's bot on its latest 8 generations averaged)
    #[command(verbatim_doc_comment)]
    Export(export::Args),
    /// Play as a GTP engine on standard input and output (see `ghast gtp --help` for colours and extensions).
    Gtp(gtp::Args),
    /// Serve a web page to play against a bot and analyse positions.
    Serve(serve::Args),
    /// An analysis engine for programs: JSON queries on standard input, searched positions on
    /// standard output, KataGo's protocol for every game (`ghast analysis --help`).
    ///
    /// Examples:
    ///   echo '{"id":"a","moves":[["B","E5"]],"maxVisits":100}' | ghast analysis --bot models/ghodak9
    ///   ghast analysis -config analysis.cfg -model models/ghodak9
    #[command(verbatim_doc_comment)]
    Analysis(analysis::Args),
    /// Replay moves read from standard input and print every position (and the result).
    ///
    /// An illegal or malformed move stops the replay with exit status 2 and a message naming
    /// the move and why.
    ///
    /// Examples:
    ///   echo "f6:0 a1:3 pass pass" | ghast replay --size 6
    ///   echo "E5 C3 pass pass" | ghast replay --game ghodak --size 9 --komi 7.5
    ///   echo "roll 4 roll 3 hold" | ghast replay --game pig --target 20
    ///   echo "d8h4" | ghast replay --game ghostchess --from "3q4/8/8/3P4/7P/8/8/N6R b - - - 0 11"
    #[command(verbatim_doc_comment)]
    Replay(replay::Args),
    /// Measure the speed of the rules, the search, the network and the self-play loop.
    #[cfg_attr(feature = "torch", command(subcommand))]
    Bench(bench::Bench),
    /// List the games this build plays: each one's rules with their defaults, and what it
    /// can do besides training and rating (GTP, a page).
    Games(games::Args),
}

pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        #[cfg(feature = "torch")]
        Command::Train(args) => train::run(args),
        #[cfg(feature = "torch")]
        Command::Learn(args) => learn::run(args),
        #[cfg(feature = "torch")]
        Command::Selfplay(args) => selfplay::run(args),
        #[cfg(feature = "torch")]
        Command::Ladder(args) => ladder::run(args),
        #[cfg(feature = "torch")]
        Command::Bench(bench) => bench::run(bench),
        #[cfg(not(feature = "torch"))]
        Command::Train(_) => needs_torch::refuse("train"),
        #[cfg(not(feature = "torch"))]
        Command::Learn(_) => needs_torch::refuse("learn"),
        #[cfg(not(feature = "torch"))]
        Command::Selfplay(_) => needs_torch::refuse("selfplay"),
        #[cfg(not(feature = "torch"))]
        Command::Ladder(_) => needs_torch::refuse("ladder"),
        #[cfg(not(feature = "torch"))]
        Command::Bench(_) => needs_torch::refuse("bench"),
        Command::Arena(args) => arena::run(args),
        Command::Export(args) => export::run(args),
        Command::Gtp(args) => gtp::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Analysis(args) => analysis::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Games(args) => games::run(args),
    }
}
