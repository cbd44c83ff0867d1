"""Runs a bundle's model.onnx with onnxruntime on the cases tests/onnx_export.rs wrote (the
inputs of random positions and libtorch's outputs for them) and compares every output.

    compare.py MODEL.onnx CASES_DIR

Checks the model with onnx's checker (with shape inference) first, then runs the positions in
batches of several sizes, since the batch is dynamic. Prints each output's largest absolute
difference; exits 1 where one exceeds 1e-4.
"""
import json
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime

TOLERANCE = 1e-4
BATCHES = [1, 7, 64, 200]


def main(model_path, cases):
    onnx.checker.check_model(onnx.load(model_path), full_check=True)
    shapes = json.loads((cases / "shapes.json").read_text())
    tensors = {
        name: np.fromfile(cases / f"{name}.f32", dtype="<f4").reshape(shape)
        for name, shape in shapes.items()
    }
    session = onnxruntime.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    inputs = [i.name for i in session.get_inputs()]
    outputs = [o.name for o in session.get_outputs()]
    assert inputs == ["planes", "board_mask", "illegal_bias"], inputs
    missing = set(outputs) ^ (set(shapes) - set(inputs))
    assert not missing, f"outputs differ from libtorch's: {missing}"
    rows = shapes["planes"][0]
    worst = {name: 0.0 for name in outputs}
    start, turn = 0, 0
    while start < rows:
        end = min(rows, start + BATCHES[turn % len(BATCHES)])
        feed = {name: tensors[name][start:end] for name in inputs}
        for name, value in zip(outputs, session.run(outputs, feed)):
            expected = tensors[name][start:end]
            assert value.shape == expected.shape, (name, value.shape, expected.shape)
            worst[name] = max(worst[name], float(np.abs(value - expected).max()))
        start, turn = end, turn + 1
    print(f"{rows} positions, max abs difference: "
          + ", ".join(f"{name} {diff:.2e}" for name, diff in worst.items()))
    failed = [name for name, diff in worst.items() if not diff <= TOLERANCE]
    if failed:
        print(f"beyond {TOLERANCE}: {', '.join(failed)}")
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
