#!/usr/bin/env bash
# Writes seed inputs for every fuzz target into fuzz/corpus/<target>/ (git-ignored), from the
# committed inputs under tests/crashes/<target>/ (seeds and past crashes alike).
#
# normalize, decode and rules_load read their input as raw bytes, so a file is copied as it
# is. fence and screen read a structured input (see the `Input` types in fuzz_targets/) whose
# trailing field is the text; a seed gets a short header that decodes to fixed settings
# (check with `cargo +nightly fuzz fmt TARGET FILE`), then the file's bytes.
set -euo pipefail
cd "$(dirname "$0")"
crashes=../tests/crashes

# 16 bytes of the ticket id 6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f (tests/it/hostile/props.rs).
ticket='\x6f\x1c\x2d\x3e\x4b\x5a\x4c\x6d\x8e\x7f\x9a\x0b\x1c\x2d\x3e\x4f'

seed() { # target name header-printf-format source-file
    mkdir -p "corpus/$1"
    { printf "$3"; cat "$4"; } > "corpus/$1/$2"
}

for target in normalize decode rules_load fence screen; do
    mkdir -p "corpus/$target"
    for f in "$crashes/$target"/* "$crashes"/fence/* "$crashes"/screen/*; do
        [ -f "$f" ] || continue
        name=$(basename "$f")
        case $target in
            fence)
                # label: Listed(0) = TICKET_BODY, nonce: None
                seed fence "$name" '\0\0\0\0\0\0' "$f"
                # label: Listed(1) = T, nonce: Some(Listed(0)) = c0ffee00
                seed fence "$name.nonce" '\0\0\0\0\1\1\0\0\0\0\0' "$f"
                ;;
            screen)
                # no ticket, no allowed ids or emails, default word limit, no inserts
                seed screen "$name" '\0\0\0\0\0' "$f"
                # this ticket, nothing else
                seed screen "$name.ticket" "\\1$ticket\\0\\0\\0\\0" "$f"
                ;;
            *)
                cp "$f" "corpus/$target/$name"
                ;;
        esac
    done
done
# Ordinary inputs, so the fuzzer starts from the common paths too.
printf 'Hi Sam, your refund is on its way.\nBest, Ana\n' > corpus/normalize/plain
cp corpus/normalize/plain corpus/decode/plain
cp ../rules/draft.toml corpus/rules_load/draft.toml
cp ../rules/injection.toml corpus/rules_load/injection.toml
if [ -s ../rules/credentials.toml ]; then cp ../rules/credentials.toml corpus/rules_load/; fi
echo "seeds written under fuzz/corpus/"
