#![no_main]
//! Replay shard files: any bytes decode to a shard or an error, and a shard that decodes
//! encodes back to bytes that decode to the same shard.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(shard) = replay::decode_shard("fuzz", data) {
        let bytes = replay::encode_shard(&shard).expect("a decoded shard encodes");
        let again = replay::decode_shard("fuzz", &bytes).expect("an encoded shard decodes");
        assert_eq!(again, shard);
    }
});
