//! A graph under construction: nodes in the order they run, constants as initializers, and a
//! name for every value.

use crate::proto::{
    AttributeProto, AttributeType, DataType, Dimension, DimensionValue, GraphProto, NodeProto,
    TensorProto, TensorShapeProto, TensorTypeProto, TypeProto, ValueInfoProto,
};

/// A value of the graph, by name.
pub(crate) type Value = String;

/// An attribute of a node.
pub(crate) enum Attribute {
    Float(f32),
    Int(i64),
    Ints(Vec<i64>),
}

/// A dimension of an input or output: fixed, or named and left to the runtime.
#[derive(Clone, Copy)]
pub(crate) enum Dim {
    Fixed(i64),
    Named(&'static str),
}

#[derive(Default)]
pub(crate) struct Graph {
    nodes: Vec<NodeProto>,
    initializers: Vec<TensorProto>,
    inputs: Vec<ValueInfoProto>,
    outputs: Vec<ValueInfoProto>,
}

impl Graph {
    /// Declares a float input of the graph.
    pub(crate) fn input(&mut self, name: &str, dims: &[Dim], doc: &str) -> Value {
        self.inputs.push(value_info(name, dims, doc));
        name.to_owned()
    }

    /// Declares `value` an output of the graph, under its own name.
    pub(crate) fn output(&mut self, value: &Value, dims: &[Dim], doc: &str) {
        self.outputs.push(value_info(value, dims, doc));
    }

    /// A float constant of shape `dims`, row-major.
    pub(crate) fn floats(&mut self, name: &str, dims: &[usize], values: &[f32]) -> Value {
        debug_assert_eq!(dims.iter().product::<usize>(), values.len(), "{name}");
        let raw_data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, dims, DataType::Float, raw_data)
    }

    /// A one-dimensional int64 constant (axes, slice bounds).
    pub(crate) fn ints(&mut self, name: &str, values: &[i64]) -> Value {
        let raw_data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, &[values.len()], DataType::Int64, raw_data)
    }

    fn constant(&mut self, name: &str, dims: &[usize], kind: DataType, raw: Vec<u8>) -> Value {
        debug_assert!(
            self.initializers.iter().all(|t| t.name != name),
            "constant {name} defined twice"
        );
        self.initializers.push(TensorProto {
            dims: dims.iter().map(|&d| d as i64).collect(),
            data_type: kind as i32,
            name: name.to_owned(),
            raw_data: raw,
        });
        name.to_owned()
    }

    /// Appends a node of `op` on `inputs`, whose one output is called `output` (which must be
    /// new), and returns that output.
    pub(crate) fn node(
        &mut self,
        op: &str,
        inputs: &[&Value],
        attributes: Vec<(&str, Attribute)>,
        output: String,
    ) -> Value {
        debug_assert!(
            self.nodes.iter().all(|n| !n.output.contains(&output)),
            "value {output} defined twice"
        );
        self.nodes.push(NodeProto {
            input: inputs.iter().map(|&input| input.clone()).collect(),
            output: vec![output.clone()],
            name: output.clone(),
            op_type: op.to_owned(),
            attribute: attributes
                .into_iter()
                .map(|(name, value)| attribute(name, value))
                .collect(),
        });
        output
    }

    pub(crate) fn into_proto(self, name: &str, doc: &str) -> GraphProto {
        GraphProto {
            node: self.nodes,
            name: name.to_owned(),
            initializer: self.initializers,
            doc_string: doc.to_owned(),
            input: self.inputs,
            output: self.outputs,
        }
    }
}

fn attribute(name: &str, value: Attribute) -> AttributeProto {
    let mut proto = AttributeProto {
        name: name.to_owned(),
        ..Default::default()
    };
    match value {
        Attribute::Float(f) => {
            proto.f = f;
            proto.r#type = AttributeType::Float as i32;
        }
        Attribute::Int(i) => {
            proto.i = i;
            proto.r#type = AttributeType::Int as i32;
        }
        Attribute::Ints(ints) => {
            proto.ints = ints;
            proto.r#type = AttributeType::Ints as i32;
        }
    }
    proto
}

fn value_info(name: &str, dims: &[Dim], doc: &str) -> ValueInfoProto {
    let dim = dims
        .iter()
        .map(|dim| Dimension {
            value: Some(match *dim {
                Dim::Fixed(size) => DimensionValue::DimValue(size),
                Dim::Named(name) => DimensionValue::DimParam(name.to_owned()),
            }),
        })
        .collect();
    ValueInfoProto {
        name: name.to_owned(),
        r#type: Some(TypeProto {
            tensor_type: Some(TensorTypeProto {
                elem_type: DataType::Float as i32,
                shape: Some(TensorShapeProto { dim }),
            }),
        }),
        doc_string: doc.to_owned(),
    }
}
