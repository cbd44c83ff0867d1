//! The architecture of a network: everything needed to rebuild it from a checkpoint sidecar.

use game::{PlaneShape, PolicyLayout};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Shape of the residual tower and its heads.
///
/// Nothing here depends on the board size: the net is fully convolutional and pools over the
/// on-board cells, so one set of weights serves every board that has these input channels and
/// this policy layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetConfig {
    /// Input planes per cell (`PlaneShape::channels`).
    pub input_channels: usize,
    /// Residual blocks in the trunk.
    pub blocks: usize,
    /// Channels of the trunk.
    pub channels: usize,
    /// Every `global_pool_interval`-th block adds a bias computed from pooled features
    /// (KataGo's global pooling); `0` disables it.
    pub global_pool_interval: usize,
    /// Channels that a global-pooling block (and the policy head) pools.
    pub global_pool_channels: usize,
    /// Channels of the policy head's 1x1 convolution.
    pub policy_channels: usize,
    /// Channels of the value head's 1x1 convolution (also the ownership head's input).
    pub value_channels: usize,
    /// Hidden units between the value head's pooled features and its outputs.
    pub value_hidden: usize,
    /// Policy planes per cell (`PolicyLayout::spatial_planes`).
    pub spatial_planes: usize,
    /// Actions after the spatial ones (`PolicyLayout::global_actions`).
    pub global_actions: usize,
    /// A second policy output trained on the softened target (KataGo's auxiliary soft
    /// policy): it makes the trunk tell apart the moves the main target all but ignores.
    #[serde(default)]
    pub soft_policy: bool,
    /// The policy head's non-linearity. Under ReLU a whole head can die: on the standard
    /// board the first generations' search targets carry little signal, training silences
    /// the head (batch-norm scales near zero, shifts negative), every unit stays off, no
    /// gradient reaches them again, and the priors stay uniform for good: so it went in the
    /// 2-hour run behind `models/ghast-size6`. SiLU (`x * sigmoid(x)`) is nowhere flat, so a
    /// head silenced early comes back once the targets mean something; it costs a tiny net's
    /// pass under 1% where Mish (KataGo's choice) cost 8% on this CPU. Sidecars written
    /// before this choice existed are ReLU.
    #[serde(default = "Activation::relu")]
    pub policy_activation: Activation,
}

/// A non-linearity of the network.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    Relu,
    /// `x * sigmoid(x)`, also called swish.
    Silu,
}

impl Activation {
    fn relu() -> Activation {
        Activation::Relu
    }
}

/// Named sizes, so that configuration files and the command line need not spell out a net.
///
/// FLOPs per evaluation ([`NetConfig::flops`]) on an 11 x 11 grid with 20 input planes:
/// tiny about 3.5 M, small 115 M, standard 749 M.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// 2 blocks x 16 channels: tests and smoke runs.
    Tiny,
    /// 6 blocks x 64 channels: early generations and CPU play.
    Small,
    /// 10 blocks x 128 channels: the main run.
    Standard,
}

impl Preset {
    pub const ALL: [Preset; 3] = [Preset::Tiny, Preset::Small, Preset::Standard];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Tiny => "tiny",
            Preset::Small => "small",
            Preset::Standard => "standard",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|preset| preset.name() == s)
            .ok_or_else(|| {
                format!("unknown network preset `{s}` (expected tiny, small or standard)")
            })
    }
}

impl Preset {
    pub fn size(self) -> NetSize {
        let (blocks, channels) = match self {
            Preset::Tiny => (2, 16),
            Preset::Small => (6, 64),
            Preset::Standard => (10, 128),
        };
        NetSize { blocks, channels }
    }
}

/// The depth and width of a residual tower; the heads follow from the width.
///
/// Written `BLOCKSxCHANNELS` (`4x32`) or as a preset's name, so configuration files and the
/// command line can name any tower, not only the presets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetSize {
    pub blocks: usize,
    pub channels: usize,
}

/// Widest tower accepted from text: far beyond what any machine here trains, small enough that
/// a typo cannot ask for terabytes.
const MAX_CHANNELS: usize = 1024;
const MAX_BLOCKS: usize = 64;

impl NetSize {
    /// Checks the bounds a text or config value must meet.
    pub fn validate(self) -> Result<NetSize, String> {
        if !(1..=MAX_BLOCKS).contains(&self.blocks) {
            return Err(format!(
                "{} blocks: a tower has 1 to {MAX_BLOCKS} blocks",
                self.blocks
            ));
        }
        if !(1..=MAX_CHANNELS).contains(&self.channels) {
            return Err(format!(
                "{} channels: a tower has 1 to {MAX_CHANNELS} channels",
                self.channels
            ));
        }
        Ok(self)
    }
}

impl fmt::Display for NetSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.blocks, self.channels)
    }
}

impl FromStr for NetSize {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Ok(preset) = s.parse::<Preset>() {
            return Ok(preset.size());
        }
        let malformed = || {
            format!("network `{s}`: expected tiny, small, standard or BLOCKSxCHANNELS (e.g. 4x32)")
        };
        let (blocks, channels) = s.split_once('x').ok_or_else(malformed)?;
        let blocks = blocks.parse().map_err(|_| malformed())?;
        let channels = channels.parse().map_err(|_| malformed())?;
        NetSize { blocks, channels }
            .validate()
            .map_err(|reason| format!("network `{s}`: {reason}"))
    }
}

/// Most actions outside the board a policy head may have: far more than any game here.
const MAX_GLOBAL_ACTIONS: usize = 65_536;

impl NetConfig {
    /// Checks what a sidecar claims before a network is built from it: every layer at least
    /// one unit wide (a layer fed by none cannot even be initialised) and none wider than a
    /// tower may be, so that a corrupt sidecar is an error, never a crash in libtorch.
    pub fn validate(&self) -> Result<(), String> {
        NetSize {
            blocks: self.blocks,
            channels: self.channels,
        }
        .validate()?;
        for (field, value) in [
            ("input_channels", self.input_channels),
            ("global_pool_channels", self.global_pool_channels),
            ("policy_channels", self.policy_channels),
            ("value_channels", self.value_channels),
            ("value_hidden", self.value_hidden),
        ] {
            bounds::within(field, value, 1, MAX_CHANNELS)?;
        }
        bounds::at_most("spatial_planes", self.spatial_planes, MAX_CHANNELS)?;
        bounds::at_most("global_actions", self.global_actions, MAX_GLOBAL_ACTIONS)?;
        if self.spatial_planes + self.global_actions == 0 {
            return Err(
                "spatial_planes and global_actions are both 0: a policy of no actions".into(),
            );
        }
        Ok(())
    }

    /// The preset's tower and heads for a game's planes and policy layout.
    pub fn preset(preset: Preset, input_channels: usize, layout: PolicyLayout) -> NetConfig {
        NetConfig::sized(preset.size(), input_channels, layout)
    }

    /// A tower of `size` with heads scaled to its width (a quarter of the trunk's channels,
    /// at least 8, for pooling and the policy and value convolutions, as in KataGo's nets).
    pub fn sized(size: NetSize, input_channels: usize, layout: PolicyLayout) -> NetConfig {
        let NetSize { blocks, channels } = size;
        let head = (channels / 4).max(8);
        NetConfig {
            input_channels,
            blocks,
            channels,
            global_pool_interval: if blocks < 3 { 2 } else { 3 },
            global_pool_channels: head,
            policy_channels: head,
            value_channels: head,
            value_hidden: channels,
            spatial_planes: layout.spatial_planes,
            global_actions: layout.global_actions,
            soft_policy: false,
            policy_activation: Activation::Silu,
        }
    }

    pub fn policy_layout(&self) -> PolicyLayout {
        PolicyLayout {
            spatial_planes: self.spatial_planes,
            global_actions: self.global_actions,
        }
    }

    /// Whether residual block `index` (from 0) is a global-pooling block.
    pub fn is_global_pool_block(&self, index: usize) -> bool {
        self.global_pool_interval != 0 && (index + 1).is_multiple_of(self.global_pool_interval)
    }

    /// Size of the dense action space on a `height` x `width` grid.
    pub fn num_actions(&self, height: usize, width: usize) -> usize {
        self.spatial_planes * height * width + self.global_actions
    }

    /// Floating-point operations of one forward evaluation on `shape`'s grid, counting a
    /// multiply-add as two and only convolutions and dense layers (batch norm, activations and
    /// pooling add well under 1%). Convolutions run over the whole padded grid, so this is
    /// what the hardware does, not what the board needs.
    pub fn flops(&self, shape: PlaneShape) -> u64 {
        let cells = shape.cells() as u64;
        let conv = |k: u64, cin: usize, cout: usize| 2 * k * k * cin as u64 * cout as u64 * cells;
        let dense = |cin: usize, cout: usize| 2 * cin as u64 * cout as u64;
        let (c, g) = (self.channels, self.global_pool_channels);
        let pooled = |channels: usize| POOLED_FEATURES * channels;

        let stem = conv(3, self.input_channels, c);
        let tower: u64 = (0..self.blocks)
            .map(|index| {
                let plain = 2 * conv(3, c, c);
                if self.is_global_pool_block(index) {
                    plain + conv(3, c, g) + dense(pooled(g), c)
                } else {
                    plain
                }
            })
            .sum();
        let (p, v) = (self.policy_channels, self.value_channels);
        let policies = 1 + usize::from(self.soft_policy);
        let policy = conv(1, c, p)
            + conv(1, c, g)
            + dense(pooled(g), p)
            + conv(1, p, self.spatial_planes * policies)
            + dense(pooled(g), self.global_actions * policies);
        let value = conv(1, c, v)
            + dense(pooled(v), self.value_hidden)
            + dense(self.value_hidden, WDL + 1)
            + conv(1, v, 1);
        stem + tower + policy + value
    }
}

/// Features per pooled channel: mean, mean scaled by board size, max.
pub const POOLED_FEATURES: usize = 3;

/// Win, draw and loss.
pub const WDL: usize = 3;
