-- Admits one interactive sandbox run: at most `per_user` live leases ("RunLease") for the user (on
-- every instance) and `per_instance` on the instance that runs it (its sandbox slots plus queue).
-- Advisory locks serialise admissions of one user and of one instance, so simultaneous requests
-- cannot all pass the counts. Leases live `ttl_ms` unless renewed: a crashed instance's expire.
-- Returns the new lease, or why it was refused ('user' or 'instance') and the count held.
-- Called by lib/server/runs/run-leases.ts.
CREATE OR REPLACE FUNCTION verity_admit_run(user_id text, instance_id text, per_user integer, per_instance integer, ttl_ms integer)
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
