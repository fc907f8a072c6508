use std::time::Instant;
use xla_layout::{parse_array, RelayoutPlan};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (from, to) = (&args[1], &args[2]);
    let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let src: Vec<u8> = (0..plan.source_bytes()).map(|i| (i * 7 + 3) as u8).collect();
    let mut dst = vec![0u8; plan.destination_bytes() as usize];
    let mut copy = vec![0u8; src.len()];
    let typed = args.get(3).is_some();
    let srcf: Vec<f32> = (0..src.len()/4).map(|i| i as f32).collect();
    let mut dstf = vec![0f32; dst.len()/4];
    let mut best = [f64::MAX; 2];
    for _ in 0..7 {
        let t = Instant::now(); copy.copy_from_slice(&src); best[0] = best[0].min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        if typed { plan.run(&srcf, &mut dstf).unwrap(); } else { plan.run_bytes(&src, &mut dst).unwrap(); }
        best[1] = best[1].min(t.elapsed().as_secs_f64());
    }
    println!("memcpy {:.2} ms relayout {:.2} ms ratio {:.2}", best[0]*1e3, best[1]*1e3, best[0]/best[1]);
}
