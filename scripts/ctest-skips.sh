#!/usr/bin/env bash
# Prints why each skipped test was skipped: `ctest --output-on-failure` shows
# only "Skipped". The reason is the test's "SKIP: ..." line (else its last
# line of output), read from the JUnit report ctest wrote (--output-junit).
# Usage: ctest-skips.sh JUNIT.xml
set -euo pipefail
report=${1:?usage: ctest-skips.sh JUNIT.xml}
[ -f "$report" ] || exit 0
python3 - "$report" <<'PY'
import sys
import xml.etree.ElementTree as ET

for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if case.find("skipped") is None:
        continue
    lines = [l for l in (case.findtext("system-out") or "").splitlines() if l.strip()]
    reason = next((l for l in lines if "SKIP" in l), lines[-1] if lines else "(no reason printed)")
    print(f"skipped {case.get('name')}: {reason.strip()}")
PY
