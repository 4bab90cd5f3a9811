#!/usr/bin/env bash
# Submits `learn nonogram` to Slurm as N shard jobs (one job array) and
# their merge (a job that starts once every shard succeeded):
#
#   scripts/slurm/submit.sh N OUT_DIR [learn nonogram options...]
#
# The options (e.g. --sample 295 --seed 1) go to every shard and to the
# merge; --out-dir, --shards, --shard, --merge and --resume are set here.
# The jobs run in the directory submit.sh is called from, so OUT_DIR and
# relative paths in the options mean what they mean there (the bundled
# inputs, specs/ and rules/, are found in the checkout the binary was
# built from). The binary is $STRATSYNTH (default:
# target/release/stratsynth of this checkout); it must be an executable
# file, or nothing is submitted. Options for sbatch itself go through its
# environment variables (SBATCH_PARTITION, SBATCH_TIMELIMIT, ...;
# --cpus-per-task via SBATCH_CPUS_PER_TASK sets each job's --threads).
# Prints the two job ids.
set -euo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]] || [ -z "$2" ]; then
    echo "usage: $0 N OUT_DIR [learn nonogram options...]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
shards=$1
out_dir=$(realpath -m -- "$2")
shift 2
binary=${STRATSYNTH:-$here/../../target/release/stratsynth}
if ! [ -f "$binary" ] || ! [ -x "$binary" ]; then
    echo "$0: STRATSYNTH=$binary is not an executable file; build it (cargo build --release) or set STRATSYNTH; nothing submitted" >&2
    exit 2
fi
STRATSYNTH=$(realpath -- "$binary")
export STRATSYNTH
mkdir -p "$out_dir/slurm"
# sbatch reads %-patterns in --output (%a: the task); a % of OUT_DIR is written %%
logs=${out_dir//%/%%}/slurm
array=$(sbatch --parsable --export=ALL --array="0-$((shards - 1))" \
    --output="$logs/shard-%a.out" "$here/shard.sbatch" "$out_dir" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$logs/merge.out" "$here/merge.sbatch" "$shards" "$out_dir" "$@")
merge=${merge%%;*}
echo "$array $merge"
