#!/usr/bin/env bash
# Runs the fuzz targets with cargo-fuzz (libFuzzer, AddressSanitizer), each for SECONDS
# (default 1800), one after another, seeding the corpora with the real robots.txt files and
# using the keyword dictionary. Crashes land in tools/fuzz/artifacts/TARGET/; turn each into a
# regression test (see README.md).
#
#   tools/fuzz/run.sh [SECONDS] [TARGET...]        (needs: rustup nightly, cargo install cargo-fuzz)
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-1800}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse matcher pieces canon classify warc reader)
shared=../../../shared/corpora
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  if [ "$t" = parse ] || [ "$t" = matcher ]; then
    # Seed with real files (capped at 64 KiB each, libFuzzer's -max_len below).
    if [ -d "$shared/robots" ] && [ -z "$(ls -A "corpus/$t")" ]; then
      # (`|| true`: head closing the pipe early is not a failure.)
      find "$shared/robots" -name '*.txt' -size -64k | sort | head -3000 | xargs -I{} cp {} "corpus/$t/" || true
    fi
  elif [ "$t" = classify ] && [ -d "$shared/urls" ] && [ -z "$(ls -A "corpus/$t")" ]; then
    zcat "$shared/urls/reddit-2010-01.txt.gz" | head -20000 | split -l 200 - "corpus/$t/log-" || true
  elif [ "$t" = reader ] && [ -d "$shared/urls" ] && [ -z "$(ls -A "corpus/$t")" ]; then
    # Real log lines, as they are, with CR line ends, and gzip-compressed (the target's input
    # is arbitrary-derived, so these only seed its text).
    { zcat "$shared/urls/reddit-2010-01.txt.gz" || true; } | head -2000 | split -l 100 - "corpus/$t/log-"
    for f in corpus/$t/log-*; do tr '\n' '\r' < "$f" > "$f.cr"; gzip -c "$f" > "$f.gz"; done
  elif [ "$t" = warc ] && [ -z "$(ls -A "corpus/$t")" ]; then
    # The committed test WARC (gzip members), and its first records uncompressed.
    cp ../../corpora/warc/sample.warc.gz "corpus/$t/"
    { zcat ../../corpora/warc/sample.warc.gz 2>/dev/null || true; } | head -c 60000 > "corpus/$t/plain.warc"
  fi
  echo "== $t for $seconds s"
  cargo +nightly fuzz run --fuzz-dir . "$t" "corpus/$t" -- -dict=robots.dict -max_total_time="$seconds" \
    -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -25
done
