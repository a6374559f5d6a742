// rust-names: main -> spin::hot_loop, which spins for the whole duration:
// nearly 100% of the samples end in rust_names::spin::hot_loop. Built twice,
// with legacy (_ZN...17h<hash>E) and v0 (_R...) symbol mangling.
use std::time::{Duration, Instant};

mod spin {
    use std::ptr::{read_volatile, write_volatile};
    use std::time::Instant;

    // volatile, not std::hint::black_box: Debian 12's rustc 1.63 lacks it
    #[inline(never)]
    pub fn hot_loop(end: Instant) -> u64 {
        let mut n: u64 = 0;
        while Instant::now() < end {
            for i in 0..100_000u64 {
                unsafe { write_volatile(&mut n, read_volatile(&n).wrapping_add(i)) };
            }
        }
        n
    }
}

fn main() {
    let secs: f64 = match std::env::args().nth(1).and_then(|s| s.parse().ok()) {
        Some(s) if s >= 0.0 && s <= 1e6 => s,
        _ => {
            eprintln!("usage: rust-names SECONDS");
            std::process::exit(2);
        }
    };
    let end = Instant::now() + Duration::from_secs_f64(secs);
    if spin::hot_loop(end) == 1 {
        println!("1");
    }
}
