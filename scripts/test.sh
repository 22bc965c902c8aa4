#!/usr/bin/env bash
# `npm test`: the whole suite — lint, types, unit, integration (real embedded PostgreSQL 18),
# sandbox (real bubblewrap; run `npm run sandbox:install` first), the cluster tier (Debian's
# PostgreSQL, two app instances and a worker; needs `apt-get install postgresql`), and Playwright
# e2e in Chromium. Under CI the integration tests also run on Debian's PostgreSQL (15 on Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-reports
rm -f test-reports/vitest-*.json
reports=(test-reports/vitest.json)
SECONDS=0

echo "== ESLint"; npx eslint .
echo "== Prettier"; npx prettier --check .
echo "== Dependency rules"; npm run --silent lint:deps
echo "== Dead code"; npm run --silent lint:dead
echo "== TypeScript"; npx tsc --noEmit
stage() { echo "== $1 (at ${SECONDS} s)"; }

stage "Vitest: unit and sandbox"
# The sandbox tier alone on the machine: its limits and load tests measure time.
npx vitest run --project unit --project sandbox \
  --reporter=default --reporter=json --outputFile.json=test-reports/vitest.json

stage "Vitest: integration"
reports+=(test-reports/vitest-integration.json)
if [[ -n "${CI:-}" && "${CI}" != "false" ]]; then
  # Under CI the integration files also run on Debian's PostgreSQL, beside the embedded run: each
  # run is one file at a time and mostly waits on its server, so two share the cores well. The
  # second run has its own server, port range and report; its output is printed when it ends.
  system_log=test-reports/vitest-system-postgres.log
  VERITY_TEST_POSTGRES=system VERITY_TEST_DB_PORT=$((${VERITY_TEST_DB_PORT:-54339} + 100)) \
    npx vitest run --project integration --reporter=default --reporter=json \
    --outputFile.json=test-reports/vitest-system-postgres.json >"$system_log" 2>&1 &
  system_pid=$!
  reports+=(test-reports/vitest-system-postgres.json)
fi
embedded_status=0
npx vitest run --project integration \
  --reporter=default --reporter=json --outputFile.json=test-reports/vitest-integration.json || embedded_status=$?
if [[ -n "${system_pid:-}" ]]; then
  system_status=0
  wait "$system_pid" || system_status=$?
  stage "Vitest: integration on Debian's PostgreSQL (ran beside the embedded run)"
  cat "$system_log"
  ((system_status == 0)) || exit "$system_status"
fi
((embedded_status == 0)) || exit "$embedded_status"
stage "Next.js build"; npx next build
stage "Cluster: Debian's PostgreSQL, two app instances, a worker"
npx vitest run --project cluster --reporter=default --reporter=json --outputFile.json=test-reports/vitest-cluster.json
reports+=(test-reports/vitest-cluster.json)
stage "Playwright e2e"
PLAYWRIGHT_JSON_OUTPUT_NAME=test-reports/playwright.json npx playwright test --reporter=list,json

stage "Summary"
node scripts/test-summary.mjs "${reports[@]}" test-reports/playwright.json
