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

echo "== ESLint"; npx eslint .
echo "== Prettier"; npx prettier --check .
echo "== Dependency rules"; npm run --silent lint:deps
echo "== Dead code"; npm run --silent lint:dead
echo "== TypeScript"; npx tsc --noEmit
echo "== Vitest: unit, integration, sandbox"
npx vitest run --project unit --project integration --project sandbox \
  --reporter=default --reporter=json --outputFile.json=test-reports/vitest.json
if [[ -n "${CI:-}" && "${CI}" != "false" ]]; then
  echo "== Vitest: integration on Debian's PostgreSQL"
  VERITY_TEST_POSTGRES=system npx vitest run --project integration \
    --reporter=default --reporter=json --outputFile.json=test-reports/vitest-system-postgres.json
  reports+=(test-reports/vitest-system-postgres.json)
fi
echo "== Next.js build"; npx next build
echo "== Cluster: Debian's PostgreSQL, two app instances, a worker"
npx vitest run --project cluster --reporter=default --reporter=json --outputFile.json=test-reports/vitest-cluster.json
reports+=(test-reports/vitest-cluster.json)
echo "== Playwright e2e"
PLAYWRIGHT_JSON_OUTPUT_NAME=test-reports/playwright.json npx playwright test --reporter=list,json

node scripts/test-summary.mjs "${reports[@]}" test-reports/playwright.json
