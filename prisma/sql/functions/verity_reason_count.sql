-- How many queues a mask of functions/verity_review_reasons.sql names: the queues' order is most
-- reasons first.
CREATE OR REPLACE FUNCTION verity_reason_count(reasons integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT bit_count(reasons::bit(32))::integer
$$;
