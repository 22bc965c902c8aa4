#!/usr/bin/env bash
# `npm test`: the whole suite — lint, types, unit, integration (real embedded PostgreSQL),
# sandbox (real bubblewrap; run `npm run sandbox:install` first), and Playwright e2e in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-reports

echo "== ESLint"; npx eslint .
echo "== TypeScript"; npx tsc --noEmit
echo "== Vitest: unit, integration, sandbox"
npx vitest run --project unit --project integration --project sandbox \
  --reporter=default --reporter=json --outputFile.json=test-reports/vitest.json
echo "== Next.js build"; npx next build
echo "== Playwright e2e"
PLAYWRIGHT_JSON_OUTPUT_NAME=test-reports/playwright.json npx playwright test --reporter=list,json

node scripts/test-summary.mjs test-reports/vitest.json test-reports/playwright.json
