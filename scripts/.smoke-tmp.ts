import { createLocalBackend } from "@/lib/server/sandbox/local";
import { RECIPES } from "@/lib/server/sandbox/recipes";
const b = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
console.log(await b.isolation());
const langs = process.argv.slice(2);
for (const l of langs as any[]) {
  const r = RECIPES[l as keyof typeof RECIPES];
  const t0 = Date.now();
  const res = await b.run({ language: l, solution: r.hello.solution, test: r.hello.test });
  console.log(l, res.outcome, res.exitCode, res.signal, res.timeMs, res.memoryKb, res.limit, Date.now()-t0, JSON.stringify(res.stderr.slice(0, 600)), JSON.stringify(res.stdout.slice(0,300)), JSON.stringify((res.compileOutput??'').slice(0,300)));
}
