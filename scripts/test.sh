#!/usr/bin/env bash
# `npm test`: the whole suite — lint, types, unit, integration (real embedded PostgreSQL 18),
# sandbox (real bubblewrap; run `npm run sandbox:install` first), the cluster tier (Debian's
# PostgreSQL, two app instances and a worker; needs `apt-get install postgresql`), and Playwright
# e2e in Chromium. Under CI the integration tests also run on Debian's PostgreSQL (15 on Debian 12).
# It ends with each stage's wall time and the slowest files of each tier (scripts/test-summary.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-reports
rm -f test-reports/vitest-*.json test-reports/playwright.json test-reports/stages.tsv test-reports/lane-*
reports=(test-reports/vitest.json)
SECONDS=0

# Each stage's budget in seconds of wall time, one line each. A stage more than 50% over its budget
# fails `npm test` after the summary. Generous on purpose (CI machines vary and a false failure costs
# more than a late warning): CI's printed stages run at a fraction of these (docs/benchmarks.md,
# "Issue 37: the whole suite's stage times"). Tighten them as CI's own figures settle.
declare -A budget
budget[Static checks]=500
budget[Vitest: unit and sandbox]=1500
budget[Vitest: integration]=1800
budget[Next.js build]=600
budget[Playwright e2e]=1800

# Each stage's name, wall time and budget go to test-reports/stages.tsv when the next one starts.
current_stage=""
stage_started=0
end_stage() {
  if [[ -n "$current_stage" ]]; then
    printf '%s\t%s\t%s\n' "$current_stage" $((SECONDS - stage_started)) "${budget[$current_stage]}" >>test-reports/stages.tsv
    current_stage=""
  fi
}
stage() {
  end_stage
  current_stage=$1
  stage_started=$SECONDS
  echo "== $1 (at ${SECONDS} s)"
}
# A failed stage still shows where the time went before it.
trap 'status=$?; if ((status != 0)); then end_stage; node scripts/test-summary.mjs --stages test-reports/stages.tsv; fi' EXIT

# Runs one lane of checks in the background: its output to test-reports/lane-N.log, and its name
# and wall time to test-reports/lane-N.tsv with "-" for a budget (its stage's budget covers both).
lane() {
  local number=$1 name=$2
  shift 2
  (
    started=$SECONDS
    status=0
    "$@" >"test-reports/lane-$number.log" 2>&1 || status=$?
    printf '%s\t%s\t-\n' "$name" $((SECONDS - started)) >"test-reports/lane-$number.tsv"
    exit "$status"
  ) &
}
lint_lane() { npx eslint .; }
other_checks_lane() {
  echo "-- Prettier" && npx prettier --check . &&
    echo "-- Dependency rules" && npm run --silent lint:deps &&
    echo "-- Dead code" && npm run --silent lint:dead &&
    echo "-- TypeScript" && npx tsc --noEmit
}

stage "Static checks"
# The route types Next generates (.next/types) first, so that tsc checks pages and routes against
# them as `next build` would: the build then skips its own type check (next.config.ts), and the
# types are checked once. Then two lanes side by side, one a core: ESLint, which takes as long as
# the other four checks together, and Prettier, the dependency rules, dead code and tsc.
npx next typegen
lane 1 "ESLint" lint_lane
eslint_pid=$!
lane 2 "Prettier, dependency rules, dead code, TypeScript" other_checks_lane
others_pid=$!
eslint_status=0 others_status=0
wait "$eslint_pid" || eslint_status=$?
wait "$others_pid" || others_status=$?
cat test-reports/lane-1.log test-reports/lane-2.log
end_stage
cat test-reports/lane-1.tsv test-reports/lane-2.tsv >>test-reports/stages.tsv
((eslint_status == 0 && others_status == 0)) || exit 1

stage "Next.js build"
# Built before the tests, so that the cluster tier (which serves the build) can run beside the
# integration files below.
VERITY_TEST_TYPES_CHECKED=1 npx next build

stage "Vitest: unit and sandbox"
# The sandbox tier alone on the machine: its limits and load tests measure time.
npx vitest run --project unit --project sandbox \
  --reporter=default --reporter=json --outputFile.json=test-reports/vitest.json

stage "Vitest: integration"
reports+=(test-reports/vitest-integration.json test-reports/vitest-cluster.json)
# The cluster tier (Debian's PostgreSQL, two app instances of the build, a worker) beside the
# integration files: it spends most of its time waiting (tests that sleep, a dead worker's missed
# heartbeats), so it costs the integration runs little CPU. Its own server and ports; its output is
# printed when the stage ends.
echo "Cluster tier: Debian's PostgreSQL, two app instances, a worker (beside the integration files)"
lane 3 "Cluster (beside the integration files)" npx vitest run --project cluster \
  --reporter=default --reporter=json --outputFile.json=test-reports/vitest-cluster.json
cluster_pid=$!
if [[ -n "${CI:-}" && "${CI}" != "false" ]]; then
  # Under CI the integration files also run on Debian's PostgreSQL, beside the embedded run. Each
  # run has two workers, each on its own copy of the migrated database, then the files marked
  # serial one at a time (vitest.config.ts); much of a file's time is waiting on its server, so the
  # two runs still share the cores. The second run has its own server, port range and report; its
  # output is printed when it ends.
  system_log=test-reports/vitest-system-postgres.log
  VERITY_TEST_POSTGRES=system VERITY_TEST_DB_PORT=$((${VERITY_TEST_DB_PORT:-54339} + 100)) \
    npx vitest run --project 'integration*' --reporter=default --reporter=json \
    --outputFile.json=test-reports/vitest-system-postgres.json >"$system_log" 2>&1 &
  system_pid=$!
  reports+=(test-reports/vitest-system-postgres.json)
fi
embedded_status=0
npx vitest run --project 'integration*' \
  --reporter=default --reporter=json --outputFile.json=test-reports/vitest-integration.json || embedded_status=$?
if [[ -n "${system_pid:-}" ]]; then
  system_status=0
  wait "$system_pid" || system_status=$?
  echo "== Vitest: integration on Debian's PostgreSQL (ran beside the embedded run, at ${SECONDS} s)"
  cat "$system_log"
fi
cluster_status=0
wait "$cluster_pid" || cluster_status=$?
echo "== Cluster tier (ran beside the integration files, at ${SECONDS} s)"
cat test-reports/lane-3.log
end_stage
cat test-reports/lane-3.tsv >>test-reports/stages.tsv
((embedded_status == 0 && ${system_status:-0} == 0 && cluster_status == 0)) || exit 1

stage "Playwright e2e"
PLAYWRIGHT_JSON_OUTPUT_NAME=test-reports/playwright.json npx playwright test --reporter=list,json
end_stage

echo "== Summary (at ${SECONDS} s)"
trap - EXIT
node scripts/test-summary.mjs --stages test-reports/stages.tsv "${reports[@]}" test-reports/playwright.json
