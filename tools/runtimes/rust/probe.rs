// The obvious Rust standard-library calls for the register entries whose answer depends on a
// runtime (specs/interpretations.toml `runtimes`). Each line printed is
// "ENTRY<TAB>PROBE<TAB>OBSERVED"; `python -m tools runtimes` runs this and groups the lines.
// std has no JSON parser and no date type: serde_json and chrono facts are not probed here.
use std::io::{BufRead, Cursor};

const SPACES: [u32; 23] = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680,
    0x180E, 0x2000, 0x200A, 0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF];

fn out(entry: &str, probe: &str, observed: String) {
    println!("{}\t{}\t{}", entry, probe, observed);
}

fn points(s: &str) -> String {
    s.chars().map(|c| format!("U+{:04X}", c as u32)).collect::<Vec<_>>().join(" ")
}

fn main() {
    let chars: Vec<char> = SPACES.iter().map(|&p| char::from_u32(p).unwrap()).collect();
    let trimmed: String = chars.iter().filter(|c| format!("{}a", c).trim() == "a").collect();
    let split: String = chars.iter().filter(|c| format!("a{}b", c).split_whitespace().count() == 2).collect();
    out("INT-05", "str::trim removes", points(&trimmed));
    out("INT-05", "str::split_whitespace splits at", points(&split));
    out("INT-06", "str::to_lowercase(U+0130 U+03A3)", points(&"\u{130}\u{3a3}".to_lowercase()));
    out("INT-06", "str::to_lowercase(AΣ)", points(&"A\u{3a3}".to_lowercase()));
    out("INT-07", "str::len of \"é😀\"", "é😀".len().to_string());
    let mut names = vec!["\u{ff61}".to_string(), "\u{1f600}".to_string()];
    names.sort();
    out("INT-33", "Vec<String>::sort([U+FF61, U+1F600])", points(&names.concat()));
    let lines: Vec<String> = Cursor::new(b"a\r\nb\rc\n\nd\r".to_vec()).lines()
        .map(|l| format!("{:?}", l.unwrap())).collect();
    out("INT-14", "BufRead::lines of \"a\\r\\nb\\rc\\n\\nd\\r\"", lines.join(" "));
    out("INT-01", "Display of 2.0 1e21 1e-7 -0.0 0.1", format!("{} {} {} {} {}", 2.0f64, 1e21f64, 1e-7f64, -0.0f64, 0.1f64));
    let pows: Vec<String> = (1..=400).map(|i| format!("{:x}", (0.5f64).powf(i as f64 / 64.0 + i as f64 / 1000.0).to_bits())).collect();
    out("INT-04", "pow(0.5, i/64 + i/1000), i = 1..400 (bits)", pows.join(" "));
}
