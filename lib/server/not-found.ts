import "server-only";

import { notFound } from "next/navigation";

import { AppError } from "@/lib/server/errors";

/** For pages: awaits the data, turning the data layer's NOT_FOUND into Next's 404 page. */
export async function orNotFound<T>(data: Promise<T>): Promise<T> {
  try {
    return await data;
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
