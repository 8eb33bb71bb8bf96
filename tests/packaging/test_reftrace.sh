#!/usr/bin/env bash
# reftrace, a DSL2 parser, on every module and workflow (reftrace_check.py says what is checked).
# Usage: test_reftrace.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks_venv.sh"
version=$(project_version "$1")
[ -n "$version" ] || { echo "test_reftrace.sh: no project version in $1/CMakeCache.txt" >&2; exit 1; }
"$py" "$here/reftrace_check.py" "$repo" "$version"
