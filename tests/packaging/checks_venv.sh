# Sourced by the packaging checks (tests/packaging/test_*.sh): finds the
# Python of the checks' virtual environment, which scripts/install-deps.sh
# builds from scripts/check-requirements.txt, and sets $py; a missing or
# stale one is a failure, never a skip, so CI cannot pass without the checker.
venv=${WARPDP_CHECKS_VENV:-$HOME/.cache/warpdp/checks-venv}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
py=$venv/bin/python
# The checks import their helpers from tests/packaging: no __pycache__ in the source tree.
export PYTHONDONTWRITEBYTECODE=1
if [ ! -x "$py" ]; then
    echo "$(basename "$0"): no checks virtual environment at $venv: run scripts/install-deps.sh" >&2
    exit 1
fi
if ! cmp -s "$repo/scripts/check-requirements.txt" "$venv/check-requirements.txt"; then
    echo "$(basename "$0"): $venv does not hold scripts/check-requirements.txt's versions: run scripts/install-deps.sh" >&2
    exit 1
fi
# The project's version, which the modules' images and versions outputs carry.
project_version() {
    sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$1/CMakeCache.txt"
}
