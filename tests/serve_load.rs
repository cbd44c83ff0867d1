//! `ghast serve` under load, through `ghast bench serve`: clients playing whole games at once
//! beside a long analysis, an idle connection and malformed requests, against an untrained
//! bot. Latencies go to BENCHMARKS.md; here every request must succeed.

use ghast::GhastOptions;
use serde_json::Value;
use std::process::Command;

#[test]
fn many_clients_play_whole_games_at_once_and_none_fails() {
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("bot.safetensors");
    play::save_untrained::<ghast::Ghast>(
        &weights,
        &GhastOptions::default(),
        play::tiny_config::<ghast::Ghast>(&GhastOptions::default()),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_ghast"))
        .args([
            "bench",
            "serve",
            "--clients",
            "4",
            "--size",
            "3",
            "--visits",
            "8",
        ])
        .args([
            "--long-analysis",
            "3000",
            "--searches",
            "2",
            "--json",
            "--bot",
        ])
        .arg(&weights)
        .env("CUDA_VISIBLE_DEVICES", "")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("one JSON report");
    assert_eq!(report["failures"], serde_json::json!([]), "{report}");
    assert_eq!(report["games_finished"], 4, "{report}");
    let endpoints: Vec<&str> = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["endpoint"].as_str().unwrap())
        .collect();
    for endpoint in ["analyse", "bot", "new", "play", "state"] {
        assert!(endpoints.contains(&endpoint), "{endpoint} in {endpoints:?}");
    }
    let statuses: Vec<u64> = report["malformed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["status"]
                .as_u64()
                .expect("every malformed request is answered")
        })
        .collect();
    assert_eq!(statuses, [400, 400, 413, 404], "{report}");
    let closed = report["idle_connection_closed_after_seconds"]
        .as_f64()
        .expect("the server cuts off a connection that sends nothing");
    assert!(
        closed >= 9.0,
        "not before the 10-second header timeout: {closed}"
    );
}
