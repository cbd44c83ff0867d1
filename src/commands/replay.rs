use super::registry::GameWork;
use super::rule_args::GameArgs;
use crate::InputError;
use anyhow::Context;
use clap::Args as ClapArgs;
use game::{Game, Planes, SgfGame, SgfWork};
use std::io::{BufWriter, Read, Write};

/// Reads moves (whitespace separated) from standard input and prints the start position, the
/// position after each move, and `result ...` if the game ended. Chance's outcomes are moves
/// like the others (a roll of the dice, in the game's notation).
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,

    /// Start from this position (the game's position string, as replay prints it) instead
    /// of the start of the game
    #[arg(long, value_name = "POSITION")]
    from: Option<String>,

    /// Print the game as an SGF record instead (Go, `--game ghodak`): what Sabaki, KaTrain
    /// and every Go tool open. Stones of a `--from` position are written as AB/AW.
    #[arg(long)]
    sgf: bool,

    /// Replay the main line of this SGF record (Go) instead of moves from standard input:
    /// its SZ and KM set the board and the komi, its AB/AW/PL the start, and a move out of
    /// turn is played as KataGo plays it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["from", "sgf"])]
    from_sgf: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    args.game.run(Replay(&args))
}

/// The moves on standard input, replayed in the game the flags name.
struct Replay<'a>(&'a Args);

impl GameWork for Replay<'_> {
    type Output = ();

    fn run<G: Planes>(self) -> anyhow::Result<()> {
        if let Some(file) = &self.0.from_sgf {
            return G::with_sgf(ReplaySgf(file)).unwrap_or_else(|| Err(no_sgf::<G>("--from-sgf")));
        }
        let options = self.0.game.options::<G>(None)?;
        let start = match &self.0.from {
            None => G::new(&options),
            Some(text) => G::from_position_text(&options, text)
                .map_err(|error| InputError(format!("position \"{text}\": {error}")))?,
        };
        let mut moves = String::new();
        std::io::stdin()
            .read_to_string(&mut moves)
            .context("reading moves from standard input")?;
        if self.0.sgf {
            return G::with_sgf(PrintSgf { start, moves })
                .unwrap_or_else(|| Err(no_sgf::<G>("--sgf")));
        }
        let mut game = start;
        let mut out = BufWriter::new(std::io::stdout().lock());
        writeln!(out, "{}", game.position_text())?;
        for text in moves.split_whitespace() {
            match game.parse_move(text) {
                Ok(actions) => actions.into_iter().for_each(|action| game.apply(action)),
                Err(error) => {
                    out.flush()?;
                    return Err(anyhow::Error::new(InputError(error)));
                }
            }
            writeln!(out, "{text} {}", game.position_text())?;
        }
        if let Some(result) = game.result_text() {
            writeln!(out, "result {result}")?;
        }
        out.flush()?;
        Ok(())
    }
}

/// The moves played from `start`, printed as one SGF record with the result where the game
/// ended.
struct PrintSgf<G> {
    start: G,
    moves: String,
}

impl<G: Game> SgfWork<G> for PrintSgf<G> {
    type Output = anyhow::Result<()>;

    fn run(self) -> anyhow::Result<()>
    where
        G: SgfGame,
    {
        let moves: Vec<&str> = self.moves.split_whitespace().collect();
        let record =
            sgf::write_moves(&self.start, &moves, [None, None], None).map_err(InputError)?;
        print!("{record}");
        Ok(())
    }
}

/// `flag` asked for SGF in a game that SGF has no form for.
fn no_sgf<G: Game>(flag: &str) -> anyhow::Error {
    InputError(format!(
        "{flag}: {} (of these games it records Go, --game ghodak)",
        sgf::NoForm(G::NAME)
    ))
    .into()
}

/// An SGF record's main line, printed as `ghast replay` prints moves: the start, then each
/// move with the position after it, then the result if the game ended.
struct ReplaySgf<'a>(&'a std::path::Path);

impl<G: Game> SgfWork<G> for ReplaySgf<'_> {
    type Output = anyhow::Result<()>;

    fn run(self) -> anyhow::Result<()>
    where
        G: SgfGame,
    {
        let file = self.0;
        let text = std::fs::read_to_string(file)
            .map_err(|error| InputError(format!("--from-sgf {}: {error}", file.display())))?;
        let record = sgf::read_record::<G>(&text)
            .map_err(|error| InputError(format!("--from-sgf {}: {error}", file.display())))?;
        let mut out = BufWriter::new(std::io::stdout().lock());
        writeln!(out, "{}", record.positions[0].position_text())?;
        for (index, &action) in record.actions.iter().enumerate() {
            writeln!(
                out,
                "{} {}",
                record.positions[index].action_to_string(action),
                record.positions[index + 1].position_text()
            )?;
        }
        if let Some(result) = record.last().result_text() {
            writeln!(out, "result {result}")?;
        }
        out.flush()?;
        Ok(())
    }
}
