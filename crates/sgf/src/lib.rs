//! SGF, the Smart Game Format (FF[4], <https://www.red-bean.com/sgf/>): what Sabaki, KaTrain,
//! GoGui and every Go server read and write.
//!
//! Two layers, one arrow: [`tree`] reads and writes the format itself (collections, game
//! trees, nodes, properties) and knows no game; [`record`] turns a game's record into SGF and
//! back through [`game::SgfGame`], which a game implements where SGF has a number for it
//! (Go: `GM[1]`).

pub mod record;
pub mod tree;

pub use record::{
    NoForm, Players, RecordError, SgfRecord, Summary, read_record, result_value, write_moves,
    write_record,
};
pub use tree::{GameTree, Node, ParseError, Property, parse, write};
