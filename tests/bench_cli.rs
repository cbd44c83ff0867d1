//! `ghast bench` rejects durations it cannot honour with one line naming the flag, not a panic.

mod common;

use common::ghast;

#[test]
fn unbounded_or_nonsense_durations_are_bad_input() {
    for (args, expected) in [
        (
            &["bench", "selfplay", "--seconds", "inf"][..],
            "inf seconds",
        ),
        (&["bench", "rules", "--seconds", "0"], "0 seconds"),
        (
            &["bench", "nn", "--seconds", "soon"],
            "`soon` is not a number",
        ),
    ] {
        let output = ghast(args, "");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("--seconds"), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
