#![no_main]
//! SGF records as Go tools write them (start positions, records handed to `ghast`): reading
//! must refuse what is not a record with an error, never panic. Input: the text of a record,
//! read as every game's that SGF numbers; a collection that parses must also be written and
//! read back the same.

use game::{Game, SgfGame, SgfWork};
use ghast_fuzz::for_every_game;
use libfuzzer_sys::fuzz_target;

struct Read<'a>(&'a str);

impl<G: Game> SgfWork<G> for Read<'_> {
    type Output = ();

    fn run(self)
    where
        G: SgfGame,
    {
        if let Ok(record) = sgf::read_record::<G>(self.0) {
            assert_eq!(record.positions.len(), record.actions.len() + 1);
        }
    }
}

fn read_as<G: Game>(text: &str) {
    G::with_sgf(Read(text));
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(trees) = sgf::parse(text) {
        assert_eq!(sgf::parse(&sgf::write(&trees)).as_ref(), Ok(&trees));
    }
    for_every_game!(read_as(text));
});
