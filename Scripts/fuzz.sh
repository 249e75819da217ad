#!/usr/bin/env bash
# Fuzzes every reader of untrusted input (Fuzz/FuzzTargets) with libFuzzer for
# a bounded time each: import lines, query strings, HTML, association files,
# robots.txt, sitemaps, segment files.
#
#   Scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 20 s, every target)
#
# The runner is built with -sanitize=fuzzer,address into .build-fuzz. Each
# target starts from Fuzz/Corpus/<target> (segments from generated seeds) in
# a scratch copy, so the kept corpus only grows by what fails: an input that
# crashes a reader or breaks an invariant is copied to Fuzz/Corpus/<target>/
# as crash-<hash>, where FuzzRegressionTests replays it on every test run,
# and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(import-line query html association robots sitemap segment); fi

echo "== building the fuzzer (libFuzzer + AddressSanitizer) into .build-fuzz"
swift build --scratch-path .build-fuzz --product openspotlight-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 | grep -vE "warning: Cannot export local symbol|ld.gold: warning" | tail -3
runner=$(swift build --scratch-path .build-fuzz --show-bin-path)/openspotlight-fuzz

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for target in "${targets[@]}"; do
    corpus="$work/$target"
    mkdir -p "$corpus" "$work/artifacts-$target"
    if [ -d "Fuzz/Corpus/$target" ]; then cp -r "Fuzz/Corpus/$target/." "$corpus/"; fi
    if [ "$target" = segment ]; then
        # The seeds come from the engine's encoder: valid segments to mutate.
        swift build --product openspotlight-fuzz >/dev/null
        "$(swift build --show-bin-path)/openspotlight-fuzz" segment-seeds "$corpus"
    fi
    echo "== fuzzing $target for ${seconds} s"
    if ! SWIFT_BACKTRACE=enable=no OPENSPOTLIGHT_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=0 \
        "$runner" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=1048576 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts-$target/" "$corpus" >"$work/$target.log" 2>&1; then
        failed=1
        tail -40 "$work/$target.log"
        mkdir -p "Fuzz/Corpus/$target"
        for artifact in "$work/artifacts-$target"/*; do
            [ -f "$artifact" ] || continue
            name="crash-$(sha1sum "$artifact" | cut -c1-16)"
            cp "$artifact" "Fuzz/Corpus/$target/$name"
            echo "!! $target: kept $(basename "$artifact") as Fuzz/Corpus/$target/$name (replayed by FuzzRegressionTests)"
        done
    else
        grep -E "stat::number_of_executed_units|cov:" "$work/$target.log" | tail -2 || true
    fi
done
exit $failed
