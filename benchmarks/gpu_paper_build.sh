#!/usr/bin/env bash
# The paper-scale GPU reference (reference/paper-gpu): a build of the targets in MAIN, then
# EXTRA, on the GPU, within LIMIT seconds; beside it, a second build of TWICE in a copy of the
# tree, on the same GPU at the same time, whose every output is compared with the first's.
# Run from the repository root, in the project's environment, on a machine with one GPU:
#   OUT=/some/folder bash benchmarks/gpu_paper_build.sh
# OUT receives env.txt (machine, GPU, versions), timeline.txt, twice.txt (the comparison, file
# by file), twice_log.txt and main.tgz.* (results, logs and Snakemake's logs, in 15 MB parts);
# benchmarks/target_times.py reads the wall time per target from the Snakemake logs. A build
# stopped at LIMIT goes on where it stopped when run again in the same tree: each training
# resumes from its checkpoint, and ends as an uninterrupted one would.
set -u
: "${OUT:?set OUT to the folder that receives what the build leaves}"
mkdir -p "$OUT"
T0=$(date +%s)
LIMIT=${LIMIT:-500}            # seconds after T0 at which every build must have stopped
DEVICE=${DEVICE:-cuda}
OVERLAY=${OVERLAY:-config/paper.yaml}
MAIN=${MAIN:-jacot2023_fig1,jacot2022_fig1,chen2024_theory,jacot2023_fig2,jacot2023_krr,jacot2022_theory}
FIRST=${FIRST:-jacot2023_fig1 jacot2022_fig1 chen2024_theory jacot2023_fig2}
EXTRA=${EXTRA-timor2022_theory}  # EXTRA= (empty): none
TWICE=${TWICE:-jacot2022_fig1}
CORES=${CORES:-13}
# the repeat is compared with the main build's outputs, so it must be one of its targets
case ",$MAIN," in *",$TWICE,"*) ;; *) echo "TWICE ($TWICE) is not one of MAIN ($MAIN)" >&2; exit 2 ;; esac
# a fixed date in the figures' metadata, so that two builds' figures can be compared byte for byte
export PYTHONUNBUFFERED=1 SOURCE_DATE_EPOCH=1764115200
left() { echo $((LIMIT - ($(date +%s) - T0))); }
stamp() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$OUT/timeline.txt"; }

SM="python3 -m snakemake --configfile $OVERLAY --rerun-triggers mtime"

# MPS lets the many small training processes share the GPU at once; used only if it works.
mps=off
if [ "$DEVICE" = cuda ] && command -v nvidia-cuda-mps-control >/dev/null; then
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
  mkdir -p /tmp/mps-pipe /tmp/mps-log
  if timeout 20 nvidia-cuda-mps-control -d && timeout 60 python3 -c \
    "import torch; print(float(torch.ones(8, device='cuda').sum()))"; then
    mps=on
  else
    echo quit | timeout 10 nvidia-cuda-mps-control
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
  fi
fi
{
  echo "mps: $mps"
  nvidia-smi 2>&1 | head -20
  PYTHONPATH=${PYTHONPATH:-}:src python3 -c "
import sys, yaml, torch
from l2relu.ledger import reference as r
print(yaml.safe_dump({'python': sys.version.split()[0], 'torch': str(torch.__version__),
  'cuda': torch.version.cuda, 'machine': r.machine_description(), 'device': r._device(),
  'kernels': r.kernels()}, sort_keys=False))"
} >"$OUT/env.txt" 2>&1
stamp "env written (mps $mps)"

# the second build of TWICE, in a copy of the tree, beside the main build
rm -rf /tmp/b && mkdir -p /tmp/b && tar cf - --exclude=./.whl --exclude=./results \
  --exclude=./.snakemake --exclude=./logs . | (cd /tmp/b && tar xf -)
(cd /tmp/b && timeout -k 20 -s INT "$(left)" $SM --cores 2 --config device=$DEVICE \
  "targets=[$TWICE]" -- $TWICE >/tmp/b.log 2>&1; echo "rc $?" >>/tmp/b.log) &

build() {  # targets (comma-separated), cores, log name
  local budget; budget=$(left)
  [ "$budget" -gt 30 ] || { stamp "$3 skipped"; return; }
  stamp "$3 start: $1 (budget ${budget}s)"
  timeout -k 20 -s INT "$budget" $SM --cores "$2" --keep-going --config device=$DEVICE "targets=[$1]" \
    --prioritize $FIRST >"logs_$3.txt" 2>&1
  stamp "$3 end rc $?"
}
build "$MAIN" "$CORES" main
[ -n "$EXTRA" ] && build "$MAIN,$EXTRA" $((CORES + 2)) extra
wait
stamp "twice end: $(tail -1 /tmp/b.log)"

# the ledger of the targets whose rows were written
done=""
for t in ${MAIN//,/ } ${EXTRA//,/ }; do
  [ -f "results/${t%%_*}/claims/$t.csv" ] && done="$done,$t"
done
done=${done#,}
stamp "rows written: $done"
[ -n "$done" ] && timeout 45 $SM --cores 4 --nolock --config device=$DEVICE "targets=[$done]" \
  -- claims >logs_claims.txt 2>&1
stamp "ledger rc $?"

# bytes of the TWICE build against the main build's
# (a torch.save archive holds a random serialization id: its tensors are compared instead)
python3 - "$PWD" >"$OUT/twice.txt" 2>&1 <<'PY'
import pathlib, sys, torch
a, b = pathlib.Path(sys.argv[1]), pathlib.Path("/tmp/b")
made = [p for d in ("results", "figures") for p in (b / d).rglob("*") if p.is_file()]
for f in sorted(p.relative_to(b) for p in made):
    x, y = a / f, b / f
    if not x.exists():
        print("MISSING", f); continue
    if x.read_bytes() == y.read_bytes():
        print("same", f); continue
    if f.suffix == ".pt":
        s, t = (torch.load(p, weights_only=True, map_location="cpu") for p in (x, y))
        flat = lambda d, k="": [(k, d)] if torch.is_tensor(d) else [
            i for kk, v in (d.items() if isinstance(d, dict) else enumerate(d))
            for i in flat(v, f"{k}/{kk}")] if isinstance(d, (dict, list, tuple)) else [(k, d)]
        fs, ft = dict(flat(s)), dict(flat(t))
        ok = fs.keys() == ft.keys() and all(
            torch.equal(fs[k], ft[k]) if torch.is_tensor(fs[k]) else fs[k] == ft[k] for k in fs)
        print("same-tensors" if ok else "DIFFERS", f); continue
    print("DIFFERS", f)
PY
cp /tmp/b.log "$OUT/twice_log.txt"
stamp "compared: $(grep -c ^same "$OUT/twice.txt") same, $(grep -c ^DIFFERS "$OUT/twice.txt") differ: $(grep ^DIFFERS "$OUT/twice.txt" | tr "\n" " ")"
[ "$mps" = on ] && echo quit | timeout 10 nvidia-cuda-mps-control
# checkpoints of unfinished trainings stay behind; model archives too if the rest is over the limit
tar czf /tmp/main.tgz --exclude='*.resume' results logs logs_*.txt .snakemake/log figures 2>/dev/null
if [ "$(stat -c %s /tmp/main.tgz)" -gt 58000000 ]; then
  tar czf /tmp/main.tgz --exclude='*.resume' --exclude='model.pt' results logs logs_*.txt \
    .snakemake/log figures 2>/dev/null
fi
split -b 15m /tmp/main.tgz "$OUT/main.tgz."
stamp "packed $(du -h /tmp/main.tgz | cut -f1)"
