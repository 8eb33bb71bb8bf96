#!/usr/bin/env bash
# The example workflows' processes run with the built tools, chained by hand,
# and compared with one whole run of each tool (example_workflows.py says how).
# Usage: test_example_workflows.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks_venv.sh"
build=$(cd "$1" && pwd)
version=$(project_version "$build")
[ -n "$version" ] || { echo "test_example_workflows.sh: no project version in $build/CMakeCache.txt" >&2; exit 1; }
command -v hmmsearch > /dev/null || { echo "test_example_workflows.sh: hmmsearch is missing: run scripts/install-deps.sh" >&2; exit 1; }
"$py" "$here/example_workflows.py" "$repo" "$build" "$version"
