-- A campaign's sample is drawn under a keyed hash of its seed (an HMAC under a key derived from the
-- server secret), stored here at creation: a guessable seed such as 42 no longer lets an annotator
-- compute the sample from record keys and tell gold items apart. Existing campaigns keep NULL and
-- their sample drawn under the seed itself.
ALTER TABLE "Campaign" ADD COLUMN "sampleKey" TEXT;
