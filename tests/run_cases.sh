#!/usr/bin/env bash
# Runs the tool-level manifest tests/cases.tsv. Each non-comment row:
#   name <TAB> expected exit code <TAB> stderr fragment ("-" for none) <TAB> command
# A fragment of "(empty)" demands an empty stderr. The command runs under bash in a scratch directory with $BIN (the build
# directory holding the tools) and $DATA (tests/data) set.
set -uo pipefail
manifest=$1
export BIN=$2
export DATA=$(cd "$(dirname "$manifest")/data" && pwd)
pass=0; fail=0
while IFS=$'\t' read -r name want_rc fragment cmd; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    scratch=$(mktemp -d)
    got_err=$(cd "$scratch" && bash -c "$cmd" 2>&1 >/dev/null)
    got_rc=$?
    # stderr only (stdout was discarded above)
    if [[ "$got_rc" != "$want_rc" ]]; then
        echo "FAIL $name: exit $got_rc, expected $want_rc; stderr: $got_err"; fail=$((fail+1))
    elif [[ "$fragment" == "(empty)" && -n "$got_err" ]]; then
        echo "FAIL $name: expected no stderr, got: $got_err"; fail=$((fail+1))
    elif [[ "$fragment" != "-" && "$fragment" != "(empty)" && "$got_err" != *"$fragment"* ]]; then
        echo "FAIL $name: stderr lacks '$fragment': $got_err"; fail=$((fail+1))
    else
        pass=$((pass+1))
    fi
    rm -rf "$scratch"
done < "$manifest"
echo "cases: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
