use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// Print one JSON object instead of a sentence.
    #[arg(long)]
    json: bool,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("bench rules: not written yet")
}
