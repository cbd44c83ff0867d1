//! The network of `nn::model`, layer by layer, as ONNX nodes: the same arithmetic on the same
//! variables, in inference form (each batch norm that follows a convolution folded into it, as
//! `Network::fold_batch_norm` does). `tests/onnx_export.rs` holds the two to the same outputs.

use crate::OnnxError;
use crate::graph::{Attribute, Dim, Graph, Value};
use crate::weights::Weights;
use sidecar::{Activation, NetConfig, POOLED_FEATURES, WDL};

/// Epsilon of every batch norm of the network (libtorch's default).
const BATCH_NORM_EPS: f64 = 1e-5;
/// Centre and spread of `sqrt(area)` in the size-scaled mean (`nn`'s board features).
const AREA_SQRT_CENTER: f32 = 10.0;
const AREA_SQRT_SCALE: f32 = 10.0;

const BATCH: Dim = Dim::Named("batch");
const HEIGHT: Dim = Dim::Named("height");
const WIDTH: Dim = Dim::Named("width");
const ACTIONS: Dim = Dim::Named("actions");

/// Builds the whole graph: inputs, trunk, heads and outputs.
pub(crate) fn build(config: &NetConfig, weights: &mut Weights) -> Result<Graph, OnnxError> {
    let mut graph = Graph::default();
    let axes = Axes {
        channels: graph.ints("axes.1", &[1]),
        cells: graph.ints("axes.2_3", &[2, 3]),
    };
    let mut net = Builder {
        graph,
        weights,
        config,
        axes,
    };
    let planes = net.graph.input(
        "planes",
        &[
            BATCH,
            Dim::Fixed(config.input_channels as i64),
            HEIGHT,
            WIDTH,
        ],
        "the game's input planes of each position (`ghast games --planes GAME`), padded to \
         the grid",
    );
    let board_mask = net.graph.input(
        "board_mask",
        &[BATCH, HEIGHT, WIDTH],
        "1 on the board's cells, 0 on the grid's padding",
    );
    let illegal_bias = net.graph.input(
        "illegal_bias",
        &[BATCH, ACTIONS],
        "0 for a legal action, -1e9 for an illegal one: added to the policy's logits",
    );
    let board = net.board(&board_mask);
    let trunk = net.trunk(&planes, &board)?;
    let policy = net.policy(&trunk, &board, &illegal_bias)?;
    let value = net.value(&trunk, &board)?;
    net.weights.all_read()?;

    let graph = &mut net.graph;
    graph.output(
        &policy.policy,
        &[BATCH, ACTIONS],
        "probability of each action (spatial planes row-major, then the global actions); 0 \
         for an illegal one",
    );
    if let Some(soft) = &policy.soft_policy {
        graph.output(
            soft,
            &[BATCH, ACTIONS],
            "the auxiliary soft policy, laid out as the policy",
        );
    }
    graph.output(
        &value.wdl,
        &[BATCH, Dim::Fixed(WDL as i64)],
        "probabilities of a win, a draw and a loss for the side to move",
    );
    graph.output(
        &value.lead,
        &[BATCH],
        "the side to move's expected final score lead, in the game's score units",
    );
    graph.output(
        &value.ownership,
        &[BATCH, HEIGHT, WIDTH],
        "each cell's expected final owner, +1 the side to move's, -1 the opponent's; 0 off \
         the board",
    );
    Ok(net.graph)
}

struct Builder<'a, 'w> {
    graph: Graph,
    weights: &'a mut Weights<'w>,
    config: &'a NetConfig,
    axes: Axes,
}

/// The int64 constants that name axes, for the operators that take their axes as an input
/// (opset 13's Unsqueeze, Squeeze, Slice, ReduceSum): defined once, used by every layer.
struct Axes {
    /// `[1]`: the channels of `[N, C, ...]`.
    channels: Value,
    /// `[2, 3]`: the cells of `[N, C, H, W]`.
    cells: Value,
}

/// The values every masking or pooling layer reads, computed once from the board mask.
struct Board {
    /// `[N, 1, H, W]`.
    mask: Value,
    /// `[N, 1]` on-board cells, at least 1.
    area: Value,
    /// `[N, 1]` `(sqrt(area) - 10) / 10`.
    size_scale: Value,
}

struct PolicyValues {
    policy: Value,
    soft_policy: Option<Value>,
}

struct ValueValues {
    wdl: Value,
    lead: Value,
    ownership: Value,
}

impl Builder<'_, '_> {
    fn op(&mut self, op: &str, inputs: &[&Value], output: impl Into<String>) -> Value {
        self.graph.node(op, inputs, Vec::new(), output.into())
    }

    fn relu(&mut self, xs: &Value) -> Value {
        self.op("Relu", &[xs], format!("{xs}.relu"))
    }

    /// `xs * mask`: zeroes the cells off the board.
    fn mask(&mut self, xs: &Value, board: &Board) -> Value {
        self.op("Mul", &[xs, &board.mask], format!("{xs}.masked"))
    }

    fn scalar(&mut self, name: &str, value: f32) -> Value {
        self.graph.floats(name, &[], &[value])
    }

    fn board(&mut self, board_mask: &Value) -> Board {
        let channels = self.axes.channels.clone();
        let mask = self.op("Unsqueeze", &[board_mask, &channels], "board.mask");
        let cells = self.graph.node(
            "ReduceSum",
            &[&mask, &self.axes.cells],
            vec![("keepdims", Attribute::Int(0))],
            "board.cells".into(),
        );
        let one = self.scalar("one", 1.0);
        let area = self.op("Max", &[&cells, &one], "board.area");
        let root = self.op("Sqrt", &[&area], "board.area_sqrt");
        let center = self.scalar("board.area_sqrt_center", AREA_SQRT_CENTER);
        let scale = self.scalar("board.area_sqrt_scale", AREA_SQRT_SCALE);
        let centred = self.op("Sub", &[&root, &center], "board.area_sqrt_centred");
        let size_scale = self.op("Div", &[&centred, &scale], "board.size_scale");
        Board {
            mask,
            area,
            size_scale,
        }
    }

    /// `[N, C, H, W]` -> `[N, 3C]`: mean, size-scaled mean and max over the board's cells of
    /// masked, non-negative features.
    fn pool(&mut self, xs: &Value, board: &Board) -> Value {
        let sum = self.graph.node(
            "ReduceSum",
            &[xs, &self.axes.cells],
            vec![("keepdims", Attribute::Int(0))],
            format!("{xs}.sum"),
        );
        let mean = self.op("Div", &[&sum, &board.area], format!("{xs}.mean"));
        let scaled = self.op(
            "Mul",
            &[&mean, &board.size_scale],
            format!("{xs}.scaled_mean"),
        );
        let max = self.graph.node(
            "ReduceMax",
            &[xs],
            vec![
                ("axes", Attribute::Ints(vec![2, 3])),
                ("keepdims", Attribute::Int(0)),
            ],
            format!("{xs}.max"),
        );
        self.graph.node(
            "Concat",
            &[&mean, &scaled, &max],
            vec![("axis", Attribute::Int(1))],
            format!("{xs}.pooled"),
        )
    }

    /// A `kernel` x `kernel` convolution `{path}.conv` without bias, followed by the batch
    /// norm `{path}.norm`, folded into one convolution with a bias.
    fn conv_bn(
        &mut self,
        xs: &Value,
        path: &str,
        inputs: usize,
        outputs: usize,
        kernel: usize,
    ) -> Result<Value, OnnxError> {
        let conv = self.weights.get(
            &format!("{path}.conv.weight"),
            &[outputs, inputs, kernel, kernel],
        )?;
        let norm = |weights: &mut Weights, field: &str| {
            weights
                .get(&format!("{path}.norm.{field}"), &[outputs])
                .map(|t| t.values)
        };
        let gamma = norm(self.weights, "weight")?;
        let beta = norm(self.weights, "bias")?;
        let mean = norm(self.weights, "running_mean")?;
        let var = norm(self.weights, "running_var")?;
        let scale: Vec<f64> = (0..outputs)
            .map(|o| f64::from(gamma[o]) / (f64::from(var[o]) + BATCH_NORM_EPS).sqrt())
            .collect();
        let per_output = inputs * kernel * kernel;
        let weight: Vec<f32> = conv
            .values
            .iter()
            .enumerate()
            .map(|(index, &w)| (f64::from(w) * scale[index / per_output]) as f32)
            .collect();
        let bias: Vec<f32> = (0..outputs)
            .map(|o| (f64::from(beta[o]) - f64::from(mean[o]) * scale[o]) as f32)
            .collect();
        let weight = self
            .graph
            .floats(&format!("{path}.weight"), &conv.shape, &weight);
        let bias = self
            .graph
            .floats(&format!("{path}.bias"), &[outputs], &bias);
        Ok(self.conv(xs, &weight, Some(&bias), kernel, path))
    }

    /// A convolution `{path}.weight` (with `{path}.bias` when `bias`) as the weights store it.
    fn plain_conv(
        &mut self,
        xs: &Value,
        path: &str,
        inputs: usize,
        outputs: usize,
        bias: bool,
    ) -> Result<Value, OnnxError> {
        let weight = self
            .weights
            .get(&format!("{path}.weight"), &[outputs, inputs, 1, 1])?;
        let weight = self
            .graph
            .floats(&format!("{path}.weight"), &weight.shape, &weight.values);
        let bias = if bias {
            let values = self.weights.get(&format!("{path}.bias"), &[outputs])?;
            Some(
                self.graph
                    .floats(&format!("{path}.bias"), &[outputs], &values.values),
            )
        } else {
            None
        };
        Ok(self.conv(xs, &weight, bias.as_ref(), 1, path))
    }

    fn conv(
        &mut self,
        xs: &Value,
        weight: &Value,
        bias: Option<&Value>,
        kernel: usize,
        output: &str,
    ) -> Value {
        let pad = (kernel / 2) as i64;
        let mut inputs = vec![xs, weight];
        inputs.extend(bias);
        self.graph.node(
            "Conv",
            &inputs,
            vec![
                ("kernel_shape", Attribute::Ints(vec![kernel as i64; 2])),
                ("pads", Attribute::Ints(vec![pad; 4])),
            ],
            output.to_owned(),
        )
    }

    /// The dense layer `{path}` (`weight` `[outputs, inputs]`, `bias`) on `[N, inputs]`.
    fn linear(
        &mut self,
        xs: &Value,
        path: &str,
        inputs: usize,
        outputs: usize,
    ) -> Result<Value, OnnxError> {
        let weight = self
            .weights
            .get(&format!("{path}.weight"), &[outputs, inputs])?;
        let bias = self.weights.get(&format!("{path}.bias"), &[outputs])?;
        let weight = self
            .graph
            .floats(&format!("{path}.weight"), &weight.shape, &weight.values);
        let bias = self
            .graph
            .floats(&format!("{path}.bias"), &[outputs], &bias.values);
        Ok(self.graph.node(
            "Gemm",
            &[xs, &weight, &bias],
            vec![("transB", Attribute::Int(1))],
            path.to_owned(),
        ))
    }

    /// `[N, C]` -> `[N, C, 1, 1]`, to broadcast over the cells.
    fn per_channel(&mut self, xs: &Value) -> Value {
        let cells = self.axes.cells.clone();
        self.op("Unsqueeze", &[xs, &cells], format!("{xs}.per_channel"))
    }

    fn trunk(&mut self, planes: &Value, board: &Board) -> Result<Value, OnnxError> {
        let config = self.config;
        let c = config.channels;
        let stem = self.conv_bn(planes, "stem", config.input_channels, c, 3)?;
        let stem = self.relu(&stem);
        let mut xs = self.mask(&stem, board);
        for index in 0..config.blocks {
            let path = format!("tower.{index}");
            let first = self.conv_bn(&xs, &format!("{path}.first"), c, c, 3)?;
            let mut hidden = self.relu(&first);
            if config.is_global_pool_block(index) {
                let g = config.global_pool_channels;
                let global = format!("{path}.global");
                let pool = self.conv_bn(&xs, &format!("{global}.pool"), c, g, 3)?;
                let pool = self.relu(&pool);
                let pool = self.mask(&pool, board);
                let pooled = self.pool(&pool, board);
                let bias =
                    self.linear(&pooled, &format!("{global}.bias"), POOLED_FEATURES * g, c)?;
                let bias = self.per_channel(&bias);
                hidden = self.op("Add", &[&hidden, &bias], format!("{path}.biased"));
            }
            let hidden = self.mask(&hidden, board);
            let second = self.conv_bn(&hidden, &format!("{path}.second"), c, c, 3)?;
            let sum = self.op("Add", &[&second, &xs], format!("{path}.skip"));
            let sum = self.relu(&sum);
            xs = self.mask(&sum, board);
        }
        Ok(xs)
    }

    fn policy(
        &mut self,
        trunk: &Value,
        board: &Board,
        illegal_bias: &Value,
    ) -> Result<PolicyValues, OnnxError> {
        let config = self.config;
        let (c, p, g) = (
            config.channels,
            config.policy_channels,
            config.global_pool_channels,
        );
        let policies = 1 + usize::from(config.soft_policy);
        let pool = self.conv_bn(trunk, "policy.pool", c, g, 1)?;
        let pool = self.relu(&pool);
        let pool = self.mask(&pool, board);
        let pooled = self.pool(&pool, board);
        let spatial = match config.spatial_planes {
            0 => {
                // The hidden layer feeds the spatial logits alone: a game without spatial
                // actions has it in its weights, and no use for it.
                self.weights
                    .unused(&["policy.hidden.", "policy.bias.", "policy.norm."]);
                None
            }
            planes => {
                let hidden = self.policy_hidden(trunk, &pooled, board)?;
                let spatial = "policy.spatial";
                Some(self.plain_conv(&hidden, spatial, p, planes * policies, true)?)
            }
        };
        let global = match config.global_actions {
            0 => None,
            actions => {
                let inputs = POOLED_FEATURES * g;
                Some(self.linear(&pooled, "policy.global_actions", inputs, actions * policies)?)
            }
        };
        let (spatial, global) = (spatial.as_ref(), global.as_ref());
        let policy = self.probabilities(0, "policy", spatial, global, illegal_bias);
        let soft_policy = config
            .soft_policy
            .then(|| self.probabilities(1, "soft_policy", spatial, global, illegal_bias));
        Ok(PolicyValues {
            policy,
            soft_policy,
        })
    }

    /// Policy number `index` (0 the policy, 1 the soft policy) as probabilities: its share of
    /// the spatial planes, flattened row-major, then of the global actions, masked by the
    /// illegal actions' bias.
    fn probabilities(
        &mut self,
        index: usize,
        name: &str,
        spatial: Option<&Value>,
        global: Option<&Value>,
        illegal_bias: &Value,
    ) -> Value {
        let config = self.config;
        let planes = spatial.map(|spatial| {
            let planes = self.share(spatial, index, config.spatial_planes, name);
            self.graph.node(
                "Flatten",
                &[&planes],
                vec![("axis", Attribute::Int(1))],
                format!("policy.{name}.spatial"),
            )
        });
        let globals = global.map(|global| self.share(global, index, config.global_actions, name));
        let logits = match (planes, globals) {
            (Some(planes), Some(globals)) => self.graph.node(
                "Concat",
                &[&planes, &globals],
                vec![("axis", Attribute::Int(1))],
                format!("policy.{name}.logits"),
            ),
            (Some(only), None) | (None, Some(only)) => only,
            (None, None) => unreachable!("a validated architecture has actions"),
        };
        let masked = self.op(
            "Add",
            &[&logits, illegal_bias],
            format!("policy.{name}.masked"),
        );
        self.graph.node(
            "Softmax",
            &[&masked],
            vec![("axis", Attribute::Int(1))],
            name.to_owned(),
        )
    }

    /// Channels `[index * width, (index + 1) * width)` of `xs`: one policy's share of outputs
    /// that hold both policies side by side (all of `xs` where there is one policy).
    fn share(&mut self, xs: &Value, index: usize, width: usize, name: &str) -> Value {
        if !self.config.soft_policy {
            return xs.clone();
        }
        let bounds = |i: usize| [(i * width) as i64];
        let starts = self
            .graph
            .ints(&format!("{xs}.{name}.start"), &bounds(index));
        let ends = self
            .graph
            .ints(&format!("{xs}.{name}.end"), &bounds(index + 1));
        let channels = self.axes.channels.clone();
        self.op(
            "Slice",
            &[xs, &starts, &ends, &channels],
            format!("{xs}.{name}"),
        )
    }

    /// The policy's hidden features: a 1x1 convolution, biased by the pooled features, batch
    /// norm (not folded: the bias comes between), the head's activation, masked.
    fn policy_hidden(
        &mut self,
        trunk: &Value,
        pooled: &Value,
        board: &Board,
    ) -> Result<Value, OnnxError> {
        let config = self.config;
        let (c, p, g) = (
            config.channels,
            config.policy_channels,
            config.global_pool_channels,
        );
        let hidden = self.plain_conv(trunk, "policy.hidden", c, p, false)?;
        let bias = self.linear(pooled, "policy.bias", POOLED_FEATURES * g, p)?;
        let bias = self.per_channel(&bias);
        let biased = self.op("Add", &[&hidden, &bias], "policy.hidden.biased");
        let mut norm = Vec::new();
        for field in ["weight", "bias", "running_mean", "running_var"] {
            let name = format!("policy.norm.{field}");
            let tensor = self.weights.get(&name, &[p])?;
            norm.push(self.graph.floats(&name, &[p], &tensor.values));
        }
        let normed = self.graph.node(
            "BatchNormalization",
            &[&biased, &norm[0], &norm[1], &norm[2], &norm[3]],
            vec![("epsilon", Attribute::Float(BATCH_NORM_EPS as f32))],
            "policy.hidden.normed".into(),
        );
        let activated = match config.policy_activation {
            Activation::Relu => self.relu(&normed),
            Activation::Silu => {
                let gate = self.op("Sigmoid", &[&normed], "policy.hidden.gate");
                self.op("Mul", &[&normed, &gate], "policy.hidden.silu")
            }
        };
        Ok(self.mask(&activated, board))
    }

    fn value(&mut self, trunk: &Value, board: &Board) -> Result<ValueValues, OnnxError> {
        let config = self.config;
        let (c, v, h) = (config.channels, config.value_channels, config.value_hidden);
        let features = self.conv_bn(trunk, "value.features", c, v, 1)?;
        let features = self.relu(&features);
        let features = self.mask(&features, board);
        let pooled = self.pool(&features, board);
        let hidden = self.linear(&pooled, "value.hidden", POOLED_FEATURES * v, h)?;
        let hidden = self.relu(&hidden);
        let wdl_logits = self.linear(&hidden, "value.wdl", h, WDL)?;
        let wdl = self.graph.node(
            "Softmax",
            &[&wdl_logits],
            vec![("axis", Attribute::Int(1))],
            "wdl".into(),
        );
        let lead = self.linear(&hidden, "value.lead", h, 1)?;
        let channels = self.axes.channels.clone();
        let lead = self.op("Squeeze", &[&lead, &channels], "lead");
        let ownership = self.plain_conv(&features, "value.ownership", v, 1, true)?;
        let ownership = self.op("Tanh", &[&ownership], "value.ownership.tanh");
        let ownership = self.mask(&ownership, board);
        let ownership = self.op("Squeeze", &[&ownership, &channels], "ownership");
        Ok(ValueValues {
            wdl,
            lead,
            ownership,
        })
    }
}
