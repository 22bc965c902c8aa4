#!/usr/bin/env bash
# `npm run bench`: every benchmark, one after the other, each rewriting its section of
# docs/benchmarks.md with the machine it ran on. Needs a production build (`npm run build`) for
# the queue benchmark and `npm run sandbox:install` for the sandbox one.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f .next/BUILD_ID ] || npx next build
npm run bench:import
npm run bench:queue
node scripts/run-ts.mjs scripts/bench/queue-scale.ts --mode both
npm run bench:report
npm run bench:review
npm run bench:agreement
npm run bench:workspace-page
npm run bench:sandbox
echo "Wrote docs/benchmarks.md"
