use super::train;
use ::train::{Role, RunStore};
use clap::Args as ClapArgs;

/// No argument group of its own: clap names a struct's group after the struct, and the
/// flattened `train::Args` already has the name `Args` (clap's debug assertions refuse two).
#[derive(ClapArgs)]
#[group(skip)]
pub struct Args {
    /// The store the run shares with its self-play processes: a folder (local or NFS), or
    /// s3://bucket/prefix (also gs://, az://). S3 reads AWS_ACCESS_KEY_ID,
    /// AWS_SECRET_ACCESS_KEY, AWS_REGION, and AWS_ENDPOINT with AWS_ALLOW_HTTP=true for a
    /// self-hosted service (MinIO, Garage, Ceph).
    #[arg(long)]
    store: String,
    #[command(flatten)]
    train: train::Args,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = RunStore::open(&args.store)?;
    train::run_as(&args.train, Role::Learner(&store))
}
