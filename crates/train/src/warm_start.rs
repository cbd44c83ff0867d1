//! Generation 0 of a new run: a network of the config's architecture with fresh weights drawn
//! from the run's seed, or a warm start from another run's weights (`[network] init_from`).

use crate::RunConfig;
use anyhow::{Context, Result};
use game::Planes;
use nn::{NetConfig, Network};

/// The network a new run starts from. With `[network] init_from`, the weights of that
/// checkpoint: it must be of the same game and the same architecture (every tensor's name and
/// shape), while its game options, the board size among them, may differ. No weight of the
/// network depends on the board size (convolutions, and heads over pooled features), so what a
/// small board taught carries to a larger one, as Polygames converts nets between sizes.
pub fn initial_network<G: Planes>(
    config: &RunConfig<G::Options>,
    device: tch::Device,
) -> Result<Network> {
    let start = G::new(&config.game);
    let size = config.network.size().map_err(anyhow::Error::msg)?;
    let net = NetConfig {
        soft_policy: config.network.soft_policy,
        ..NetConfig::sized(size, start.plane_shape().channels, start.policy_layout())
    };
    tch::manual_seed(config.run.seed as i64);
    let network = Network::new(net, device);
    if let Some(source) = &config.network.init_from {
        let context = || format!("[network] init_from {}", source.display());
        nn::checkpoint::describe::<G::Options>(source, G::NAME).with_context(context)?;
        nn::checkpoint::load_weights(&network, source).with_context(|| {
            format!("{}: not the architecture of [network] ({size})", context())
        })?;
    }
    Ok(network)
}
