-- Takes one token from each rate bucket ("RateBucket"), all or none, in one statement: every app
-- instance shares the budgets, and simultaneous callers queue on the rows' locks, so they cannot all
-- pass one check. A bucket holds `capacity` tokens and refills at `per_minute`; a caller may wait up
-- to `max_wait_ms` for its token (a slow-down: the token is taken now, the bucket goes below zero).
-- Returns refused = 0 and the longest wait, or the 1-based index of the first bucket that refused and
-- how long after its longest wait a token frees up.
-- Called by lib/server/rate-limits/buckets.ts.
CREATE OR REPLACE FUNCTION verity_take_rate_budgets(
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
