#!/usr/bin/env bash
# Every module's script: and stub: blocks run with the built tools (module_scripts.py says how).
# Usage: test_module_scripts.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks_venv.sh"
build=$(cd "$1" && pwd)
version=$(project_version "$build")
[ -n "$version" ] || { echo "test_module_scripts.sh: no project version in $build/CMakeCache.txt" >&2; exit 1; }
command -v hmmsearch > /dev/null || { echo "test_module_scripts.sh: hmmsearch is missing: run scripts/install-deps.sh" >&2; exit 1; }
"$py" "$here/module_scripts.py" "$repo" "$build" "$version"
