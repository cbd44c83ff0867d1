//! Reading the records of `[selfplay] start_positions` into the openings self-play starts
//! games from.

use anyhow::{Context, Result, bail};
use game::{Game, Referee, SgfGame, SgfWork};
use selfplay::{SelfplayConfig, StartPositions};

/// The start positions `config` asks for: none without a folder or with a share of 0; else
/// every usable record of the folder, and an error naming the file of one that cannot be
/// read, or the folder when it holds none.
///
/// A record is usable when it starts at the game's own start under `options` and every move
/// follows the last (so that self-play records it, and training replays it, as actions from
/// the start, under any symmetry). An SGF record of other rules' set-up (handicap stones, a
/// move out of turn, another board size or komi) is left out, and counted in the log. A
/// `.moves` file beside an `.sgf` of the same name (`ghast arena --out` writes both for Go) is
/// the same game, read once.
pub fn load<G: Game>(config: &SelfplayConfig, options: &G::Options) -> Result<StartPositions> {
    let Some(dir) = config
        .start_positions
        .as_deref()
        .filter(|_| config.start_position_share > 0.0)
    else {
        return Ok(StartPositions::default());
    };
    let context = || format!("[selfplay] start_positions {}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(context)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<std::io::Result<_>>()
        .with_context(context)?;
    files.sort();
    let (mut records, mut left_out) = (Vec::new(), 0);
    for file in &files {
        let extension = file.extension().and_then(|e| e.to_str());
        let read = || {
            std::fs::read_to_string(file)
                .with_context(|| format!("{}: {}", context(), file.display()))
        };
        match extension {
            Some("sgf") => {
                let text = read()?;
                let opening = G::with_sgf(FromSgf {
                    text: &text,
                    options,
                })
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{}: {}: {}",
                        context(),
                        file.display(),
                        sgf::NoForm(G::NAME)
                    )
                })?
                .with_context(|| format!("{}: {}", context(), file.display()))?;
                match opening {
                    Some(actions) => records.push(actions),
                    None => left_out += 1,
                }
            }
            Some("moves") if !file.with_extension("sgf").is_file() => {
                let text = read()?;
                let mut referee = Referee::new(G::new(options));
                for (number, word) in text.split_whitespace().enumerate() {
                    referee.play_told(word).map_err(|error| {
                        anyhow::anyhow!(
                            "{}: {}: move {} `{word}`: {error}",
                            context(),
                            file.display(),
                            number + 1
                        )
                    })?;
                }
                records.push(referee.actions().to_vec());
            }
            _ => {}
        }
    }
    let starts = StartPositions::new(records, config.start_position_share);
    if starts.is_empty() {
        bail!(
            "{}: no record to start from (SGF files for a game SGF records, `ghast arena --out` \
             move files for every game; {left_out} SGF records of other set-ups left out)",
            context()
        );
    }
    tracing::info!(
        "{}% of the games start from positions of {} records in {}{}",
        100.0 * config.start_position_share,
        starts.len(),
        dir.display(),
        if left_out > 0 {
            format!(" ({left_out} SGF records of other set-ups left out)")
        } else {
            String::new()
        }
    );
    Ok(starts)
}

/// An SGF record's actions from the game's start under `options`, or `None` where it is not
/// such a record.
struct FromSgf<'a, O> {
    text: &'a str,
    options: &'a O,
}

impl<G: Game> SgfWork<G> for FromSgf<'_, G::Options> {
    type Output = Result<Option<Vec<usize>>>;

    fn run(self) -> Result<Option<Vec<usize>>>
    where
        G: SgfGame,
    {
        let record = sgf::read_record::<G>(self.text)?;
        let start = G::new(self.options);
        // The record's board, komi and rules are the run's (what SGF says of the options;
        // the run may add its own, a move limit say), and it starts at the game's start.
        if G::sgf_setup(record.positions[0].options()) != G::sgf_setup(self.options)
            || record.positions[0].position_text() != start.position_text()
        {
            return Ok(None);
        }
        // A move out of turn was played after handing the turn over: not a sequence of
        // actions from the start.
        let mut referee = Referee::new(start);
        for &action in &record.actions {
            if referee.play(action).is_err() {
                return Ok(None);
            }
        }
        Ok(
            (referee.game().position_text() == record.last().position_text())
                .then(|| record.actions.clone()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ghast::Ghast;
    use std::path::Path;

    fn config(dir: &Path, share: f64) -> SelfplayConfig {
        SelfplayConfig {
            start_positions: Some(dir.to_owned()),
            start_position_share: share,
            ..SelfplayConfig::default()
        }
    }

    #[test]
    fn move_files_are_read_and_bad_ones_named() {
        let dir = tempfile::tempdir().unwrap();
        let options = ghast::RawOptions {
            size: 3,
            win_margin: 3,
            ..ghast::RawOptions::default()
        }
        .validate()
        .unwrap();
        let mut game = Ghast::new(&options);
        let mut legal = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..4 {
            game.legal_actions(&mut legal);
            let action = legal[legal.len() / 3];
            moves.push(game.action_to_string(action));
            game.apply(action);
        }
        std::fs::write(dir.path().join("game-0000.moves"), moves.join(" ")).unwrap();
        std::fs::write(dir.path().join("match.json"), "{}").unwrap();
        let starts = load::<Ghast>(&config(dir.path(), 0.5), &options).unwrap();
        assert_eq!(starts.len(), 1);
        assert!(
            load::<Ghast>(&config(dir.path(), 0.0), &options)
                .unwrap()
                .is_empty(),
            "a share of 0 reads nothing"
        );

        std::fs::write(dir.path().join("game-0001.moves"), "zz9").unwrap();
        let error = load::<Ghast>(&config(dir.path(), 0.5), &options).unwrap_err();
        let text = format!("{error:#}");
        assert!(text.contains("game-0001.moves: move 1 `zz9`"), "{text}");

        let empty = tempfile::tempdir().unwrap();
        let error = load::<Ghast>(&config(empty.path(), 0.5), &options).unwrap_err();
        assert!(
            format!("{error:#}").contains("no record to start from"),
            "{error:#}"
        );
        let sgf = empty.path().join("game.sgf");
        std::fs::write(&sgf, "(;GM[1]SZ[9];B[ee])").unwrap();
        let error = load::<Ghast>(&config(empty.path(), 0.5), &options).unwrap_err();
        assert!(
            format!("{error:#}").contains("SGF has no form for ghast"),
            "{error:#}"
        );
    }
}
