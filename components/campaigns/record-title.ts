// The title rule lives with the record format (the review queue computes titles on the server).
export { recordTitle } from "@/lib/records/title";
