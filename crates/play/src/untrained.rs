//! Untrained networks: a bot that knows only the rules, for testing tools and engines
//! against (and the test model of this crate and of the `ghast` binary's tests).

#[cfg(feature = "torch")]
use crate::error::PlayError;
#[cfg(feature = "torch")]
use game::Game;
use game::Planes;
use nn::{Activation, NetConfig};
#[cfg(feature = "torch")]
use {nn::Network, nn::checkpoint, sidecar::Provenance, std::path::Path, tch::Device};

/// The smallest network with every part of the architecture (one global-pooling block, the
/// soft policy):
/// cheap enough that tests play whole games in well under a second.
pub fn tiny_config<G: Planes>(options: &G::Options) -> NetConfig {
    let game = G::new(options);
    let layout = game.policy_layout();
    NetConfig {
        input_channels: game.plane_shape().channels,
        blocks: 1,
        channels: 8,
        global_pool_interval: 1,
        global_pool_channels: 4,
        policy_channels: 4,
        value_channels: 4,
        value_hidden: 8,
        spatial_planes: layout.spatial_planes,
        global_actions: layout.global_actions,
        soft_policy: true,
        policy_activation: Activation::Silu,
    }
}

/// Saves a randomly initialised network of `config` for `options` as generation 0 to
/// `weights` (a `.safetensors` path) and its sidecar.
#[cfg(feature = "torch")]
pub fn save_untrained<G: Game>(
    weights: &Path,
    options: &G::Options,
    config: NetConfig,
) -> Result<(), PlayError> {
    save_generation_zero::<G>(&Network::new(config, Device::Cpu), options, weights)
}

/// Saves `network` for `options` as generation 0 to `weights` and its sidecar: what
/// [`save_untrained`] saves, for a caller that changed the network first.
#[cfg(feature = "torch")]
pub fn save_generation_zero<G: Game>(
    network: &Network,
    options: &G::Options,
    weights: &Path,
) -> Result<(), PlayError> {
    let provenance = Provenance {
        game: G::NAME.to_owned(),
        game_options: options.clone(),
        generation: 0,
        training_step: 0,
        run_seconds: None,
    };
    Ok(checkpoint::save(network, &provenance, weights)?)
}
