/**
 * Marks work that may never be awaited (a read started early for an answer that is then
 * refused) as handled, so its failure cannot surface as an unhandled rejection; whoever does
 * await the returned promise still sees the failure.
 */
export function handled<T>(work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  return work;
}
