// Records that need what only the reference image's toolchains have: shared by the sandbox tests
// and the toolchain benchmark (scripts/bench/sandbox-toolchains.ts). Plain data.

// The reference's Cargo project has rand 0.4, regex 1 and md5 0.7.0.
export const RUST_CRATES_SOLUTION = `use rand::Rng;
use regex::Regex;

fn digits(text: &str) -> Vec<String> {
    let re = Regex::new(r"\\d+").unwrap();
    re.find_iter(text).map(|m| m.as_str().to_string()).collect()
}

fn digest(text: &str) -> String {
    format!("{:x}", md5::compute(text.as_bytes()))
}

fn roll() -> u32 {
    let mut rng = rand::thread_rng();
    rng.gen_range(1, 7) // rand 0.4: gen_range(low, high)
}
`;

export const RUST_CRATES_TEST = `#[test]
fn test_crates() {
    assert_eq!(digits("a1b22c333"), vec!["1", "22", "333"]);
    assert_eq!(digest("abc"), "900150983cd24fb0d6963f7d28e17f72");
    let r = roll();
    assert!((1..7).contains(&r));
}
`;
