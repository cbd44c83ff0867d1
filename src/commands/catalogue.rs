//! What `ghast games` shows of each game: its rules with their defaults and meanings, and
//! what it can do besides training and rating.

use game::rules;
use game::{BoardView, BoardViewWork, Game, GtpGame, GtpWork, Planes, SgfGame, SgfWork};

/// One game as `ghast games` lists it.
#[derive(Debug, serde::Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    pub about: &'static str,
    pub rules: Vec<RuleInfo>,
    /// What the game can do besides training and rating: `gtp`, `page`, `sgf`, `chance`,
    /// `hidden-information`.
    pub capabilities: Vec<&'static str>,
    /// The opponents `ghast ladder` rates against by default, weakest first.
    pub ladder_baselines: &'static [&'static str],
    /// The anchors `ghast ladder --bot DIR --levels` rates levels of play against by
    /// default, weakest first.
    pub level_anchors: &'static [&'static str],
    /// The opponents `ghast bench learning` rates a run's bot against by default.
    pub strongest_opponents: &'static [&'static str],
}

/// One rule of a game: its key, its default (`None` where it is derived from others, such
/// as a move limit from the board size) and what it means.
#[derive(Debug, serde::Serialize)]
pub struct RuleInfo {
    pub key: &'static str,
    pub default: Option<String>,
    pub help: &'static str,
}

impl GameInfo {
    pub(super) fn of<G: Planes>() -> GameInfo {
        let defaults = rules::table_of(&G::Options::default());
        let rules = rules::keys_of::<G::Options>()
            .iter()
            .map(|&key| RuleInfo {
                key,
                default: defaults.get(key).map(rules::value_text),
                help: G::OPTION_HELP
                    .iter()
                    .find(|(documented, _)| *documented == key)
                    .map_or("", |(_, help)| help),
            })
            .collect();
        let capabilities = [
            ("gtp", G::with_gtp(Probe).is_some()),
            ("page", G::with_board_view(Probe).is_some()),
            ("sgf", G::with_sgf(Probe).is_some()),
            ("chance", G::CHANCE),
            ("hidden-information", G::HIDDEN_INFORMATION),
        ]
        .into_iter()
        .filter_map(|(name, has)| has.then_some(name))
        .collect();
        GameInfo {
            name: G::NAME,
            about: G::ABOUT,
            rules,
            capabilities,
            ladder_baselines: G::LADDER_BASELINES,
            level_anchors: G::LEVEL_ANCHORS,
            strongest_opponents: G::STRONGEST_OPPONENTS,
        }
    }
}

/// Work that only finds out whether a game has a capability.
struct Probe;

impl<G: Game> GtpWork<G> for Probe {
    type Output = ();

    fn run(self)
    where
        G: GtpGame,
    {
    }
}

impl<G: Game> BoardViewWork<G> for Probe {
    type Output = ();

    fn run(self)
    where
        G: BoardView,
    {
    }
}

impl<G: Game> SgfWork<G> for Probe {
    type Output = ();

    fn run(self)
    where
        G: SgfGame,
    {
    }
}
