#!/usr/bin/env bash
# Time per MiB and peak memory of the release CLI on adversarial inputs at 1, 4 and 16 MiB:
# each fixture in benches/fixtures/ repeated to size (cut on a UTF-8 boundary), screened and
# fenced as one text. Prints a Markdown table. Needs GNU time (apt-get install time).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/palisade
out=target/adversarial
mkdir -p "$out"
ticket=6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f
echo "| input | screen ms/MiB at 1 / 4 / 16 MiB | screen peak RSS at 16 MiB | fence ms/MiB at 1 / 4 / 16 MiB | fence peak RSS at 16 MiB |"
echo "|---|---|---:|---|---:|"
for name in marker_fragments one_line uuids brackets at_signs digits base64; do
  for mib in 1 4 16; do
    python3 - "$name" "$mib" "$out/$name-$mib.txt" <<'PY'
import sys
name, mib, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
n = mib * 1024 * 1024
if name == "one_line":
    unit = b"word "
else:
    unit = open(f"benches/fixtures/{name}.txt", "rb").read()
data = (unit * (n // len(unit) + 1))[:n]
while True:
    try:
        data.decode("utf-8")
        break
    except UnicodeDecodeError:
        data = data[:-1]
open(path, "wb").write(data)
PY
  done
  row="| $name |"
  for cmd in screen fence; do
    cells=()
    rss=""
    for mib in 1 4 16; do
      if [ "$cmd" = screen ]; then
        args=(screen --ticket-id "$ticket" --json --max-input-bytes 20000000)
      else
        args=(fence --label T --json --max-input-bytes 20000000)
      fi
      /usr/bin/time -f "%e %M" -o "$out/time.txt" "$bin" "${args[@]}" < "$out/$name-$mib.txt" > /dev/null || true
      read -r secs kb < <(tail -n 1 "$out/time.txt")
      cells+=("$(python3 -c "print(round($secs * 1000 / $mib))")")
      rss="$(python3 -c "print(f'{$kb / 1024:.0f} MiB')")"
    done
    row="$row ${cells[0]} / ${cells[1]} / ${cells[2]} | $rss |"
  done
  echo "$row"
done
