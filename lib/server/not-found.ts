import "server-only";

import { notFound } from "next/navigation";

import { databaseFailure } from "@/lib/server/db/failures";
import { AppError } from "@/lib/server/errors";

/**
 * For pages: awaits the data, turning the data layer's NOT_FOUND into Next's 404 page. A lookup key
 * the database cannot even compare (a number beyond its column, a NUL character) finds nothing too.
 */
export async function orNotFound<T>(data: Promise<T>): Promise<T> {
  try {
    return await data;
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    if (databaseFailure(error)?.code === "INVALID_INPUT") notFound();
    throw error;
  }
}
