#![no_main]
//! `ghast export --onnx`: a sidecar's architecture and a safetensors file, either of which may
//! be anything, written as ONNX: an error that names the tensor or the architecture, never a
//! panic. Input: the architecture's length as 4 bytes (little-endian, taken modulo the rest),
//! the architecture as JSON, then the weights.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((length, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let length = u32::from_le_bytes(*length) as usize % (rest.len() + 1);
    let (architecture, weights) = rest.split_at(length);
    let Ok(architecture) = serde_json::from_slice::<sidecar::NetConfig>(architecture) else {
        return;
    };
    if let Ok(model) = onnx::export(&architecture, weights, &[("key", "value")]) {
        assert_eq!(
            onnx::metadata(&model),
            Ok(vec![("key".to_owned(), "value".to_owned())])
        );
    }
});
