//! `cargo bench -p ghast`: random full games on the standard board, one thread (the same
//! measurement as `ghast bench rules`, without building the libtorch-linked binary).

use std::time::Duration;

fn main() {
    let speed = ghast::bench::random_games(Duration::from_secs(3), 1);
    println!(
        "rules: {:.0} placements/s, {:.0} games/s ({} games)",
        speed.placements_per_sec(),
        speed.games_per_sec(),
        speed.games
    );
}
