# Source this file to build the workspace by hand: `source scripts/env.sh && cargo build`.
# It points tch's build at the project's virtual environment (see scripts/setup.sh).
ghast_env_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export VIRTUAL_ENV="$ghast_env_root/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
export LIBTORCH_USE_PYTORCH=1
unset ghast_env_root
