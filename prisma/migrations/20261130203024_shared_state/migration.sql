-- CreateTable
CREATE TABLE "RateBucket" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "fullAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RateBucket_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "RunLease" (
    "id" UUID NOT NULL,
    "userId" TEXT NOT NULL,
    "instance" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RunLease_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxProbe" (
    "language" TEXT NOT NULL,
    "backend" TEXT NOT NULL,
    "available" BOOLEAN NOT NULL,
    "reason" TEXT,
    "probedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SandboxProbe_pkey" PRIMARY KEY ("language")
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "backend" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastBeatAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Worker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkerJob" (
    "jobId" UUID NOT NULL,
    "workerId" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkerJob_pkey" PRIMARY KEY ("jobId")
);

-- CreateIndex
CREATE INDEX "RateBucket_fullAt_idx" ON "RateBucket"("fullAt");

-- CreateIndex
CREATE INDEX "RunLease_userId_expiresAt_idx" ON "RunLease"("userId", "expiresAt");

-- CreateIndex
CREATE INDEX "RunLease_instance_expiresAt_idx" ON "RunLease"("instance", "expiresAt");

-- CreateIndex
CREATE INDEX "WorkerJob_workerId_idx" ON "WorkerJob"("workerId");

-- AddForeignKey
ALTER TABLE "WorkerJob" ADD CONSTRAINT "WorkerJob_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "Worker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (schema.prisma cannot declare functions). Takes one token from each bucket, all or
-- none, in one statement: every app instance shares the budgets, and simultaneous callers queue on
-- the rows' locks, so they cannot all pass one check. A bucket holds `capacity` tokens and refills
-- at `per_minute`; a caller may wait up to `max_wait_ms` for its token (a slow-down: the token is
-- taken now, the bucket goes below zero). Returns refused = 0 and the longest wait, or the 1-based
-- index of the first bucket that refused and how long after its longest wait a token frees up.
CREATE FUNCTION verity_take_rate_budgets(
  keys text[], capacities double precision[], per_minute double precision[], max_wait_ms double precision[], at timestamptz
) RETURNS TABLE (refused integer, wait_ms double precision)
LANGUAGE plpgsql AS $$
DECLARE
  levels double precision[] := '{}';
  longest double precision := 0;
  taken_at timestamptz;
  bucket record;
  level double precision;
  wait double precision;
BEGIN
  INSERT INTO "RateBucket" (key, tokens, "updatedAt", "fullAt")
    SELECT k, c, COALESCE(at, clock_timestamp()), COALESCE(at, clock_timestamp()) FROM unnest(keys, capacities) AS t(k, c) ORDER BY k
    ON CONFLICT (key) DO NOTHING;
  -- Locked in key order, so two callers sharing buckets never wait for each other in a circle.
  PERFORM 1 FROM "RateBucket" WHERE key = ANY(keys) ORDER BY key FOR UPDATE;
  -- Read the clock once the locks are held: a caller that queued behind others refills from then.
  taken_at := COALESCE(at, clock_timestamp());
  FOR i IN 1 .. array_length(keys, 1) LOOP
    SELECT tokens, "updatedAt" INTO bucket FROM "RateBucket" WHERE key = keys[i];
    level := LEAST(capacities[i], bucket.tokens + GREATEST(0, EXTRACT(EPOCH FROM taken_at - bucket."updatedAt")) / 60 * per_minute[i]);
    wait := CASE WHEN level >= 1 THEN 0 ELSE (1 - level) / per_minute[i] * 60000 END;
    IF wait > max_wait_ms[i] THEN
      RETURN QUERY SELECT i, wait - max_wait_ms[i];
      RETURN;
    END IF;
    levels[i] := level - 1;
    longest := GREATEST(longest, wait);
  END LOOP;
  FOR i IN 1 .. array_length(keys, 1) LOOP
    UPDATE "RateBucket"
       SET tokens = levels[i], "updatedAt" = taken_at,
           "fullAt" = taken_at + make_interval(secs => (capacities[i] - levels[i]) / per_minute[i] * 60)
     WHERE key = keys[i];
  END LOOP;
  RETURN QUERY SELECT 0, longest;
END $$;

-- Hand-written. Admits one interactive sandbox run: at most `per_user` live leases for the user
-- (on every instance) and `per_instance` on the instance that runs it (its sandbox slots plus
-- queue). Advisory locks serialise admissions of one user and of one instance, so simultaneous
-- requests cannot all pass the counts. Leases live `ttl_ms` unless renewed: a crashed instance's
-- expire. Returns the new lease, or why it was refused ('user' or 'instance') and the count held.
CREATE FUNCTION verity_admit_run(user_id text, instance_id text, per_user integer, per_instance integer, ttl_ms integer)
RETURNS TABLE (lease_id uuid, refusal text, held integer)
LANGUAGE plpgsql AS $$
DECLARE
  mine integer;
  here integer;
  created uuid;
BEGIN
  -- Two lock spaces (1: users, 2: instances), always taken users first: no circle, no collision.
  PERFORM pg_advisory_xact_lock(1, hashtext(user_id));
  PERFORM pg_advisory_xact_lock(2, hashtext(instance_id));
  -- Expired leases are swept without waiting for any row another admission is touching.
  DELETE FROM "RunLease" WHERE id IN (SELECT id FROM "RunLease" WHERE "expiresAt" <= clock_timestamp() FOR UPDATE SKIP LOCKED);
  SELECT count(*) INTO mine FROM "RunLease" WHERE "userId" = user_id AND "expiresAt" > clock_timestamp();
  IF mine >= per_user THEN
    RETURN QUERY SELECT NULL::uuid, 'user'::text, mine;
    RETURN;
  END IF;
  SELECT count(*) INTO here FROM "RunLease" WHERE instance = instance_id AND "expiresAt" > clock_timestamp();
  IF here >= per_instance THEN
    RETURN QUERY SELECT NULL::uuid, 'instance'::text, here;
    RETURN;
  END IF;
  INSERT INTO "RunLease" (id, "userId", instance, "expiresAt")
    VALUES (gen_random_uuid(), user_id, instance_id, clock_timestamp() + ttl_ms * interval '1 millisecond')
    RETURNING id INTO created;
  RETURN QUERY SELECT created, NULL::text, mine + 1;
END $$;
