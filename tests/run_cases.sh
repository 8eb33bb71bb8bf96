#!/usr/bin/env bash
# Runs the tool-level manifest tests/cases.tsv. Each non-comment row:
#   name <TAB> expected exit code <TAB> stderr fragment ("-" for none) <TAB> command
# A fragment of "(empty)" demands an empty stderr. The command runs under bash in a scratch directory with $BIN (the build
# directory holding the tools) and $DATA (tests/data) set. An optional third
# argument runs only the rows whose name matches that extended regex (with a
# leading '!': those whose name does not).
set -uo pipefail
manifest=$1
export BIN=$2
export DATA=$(cd "$(dirname "$manifest")/data" && pwd)
select=${3:-}
pass=0; fail=0
while IFS=$'\t' read -r name want_rc fragment cmd; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    if [[ -n "$select" ]]; then
        if [[ "$select" == !* ]]; then [[ "$name" =~ ${select:1} ]] && continue
        else [[ "$name" =~ $select ]] || continue; fi
    fi
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
[[ $((pass + fail)) -gt 0 ]] || { echo "no case matched '$select'"; exit 1; }
[[ $fail -eq 0 ]]
