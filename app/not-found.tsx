import Link from "next/link";

export const metadata = { title: "Not found" };

/** The 404 page: a wrong link, or something the signed-in user may not see (both look the same). */
export default function NotFound() {
  return (
    <main className="mx-auto mt-16 max-w-lg px-4">
      <h1 className="text-xl font-semibold text-slate-900">Not found</h1>
      <p className="mt-2 text-sm text-slate-600">
        There is nothing at this address, or you do not have access to it. Check the link, or start again from the
        datasets.
      </p>
      <Link href="/datasets" className="mt-6 inline-block text-sm text-indigo-700 hover:underline">
        Go to datasets
      </Link>
    </main>
  );
}
