// Only here so that cargo builds the dependencies.
fn main() {}
